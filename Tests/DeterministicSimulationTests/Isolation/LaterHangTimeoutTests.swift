@testable import DeterministicSimulation
import Foundation
import Testing

/// Probe 5's M2: every isolated run that hung cost the whole run timeout, so a workload that
/// hangs in most of a campaign's runs took hours (200 runs at the default 60 s). The first hang
/// is still judged by the run timeout; later runs are given 20 times the slowest run that
/// finished, at least 1 s, at most the run timeout. The children here are shell scripts standing
/// in for workers: seed 1 answers after 0.3 s, every other seed "hangs" the way a worker's
/// watchdog ends it (its `HANG` banner, exit 124), and each `watchdog` line a child is told is
/// logged.
@Suite(.timeLimit(.minutes(1)))
struct LaterHangTimeoutTests {
    static let script = #"""
        printf '{"ready":{}}\n' >&4
        while read -r line; do
          case "$line" in
            *'"watchdog"'*) echo "$line" >> "$WATCHDOG_LOG" ;;
            *'"0x0000000000000001"'*) sleep 0.3; printf '%s\n' "$VERDICT" >&4 ;;
            *) printf '\nbgsim: HANG: a run made no progress\n' >&2; exit 124 ;;
          esac
        done
        """#

    @Test("after a run hung, later runs are told 20 times the slowest finished run, and their hangs say so")
    func laterRunsGetLess() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("watchdog-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        var encoder = VerdictWire.Encoder()
        let verdict = encoder.line(RunVerdict(digest: TraceDigest(7), eventCount: 3, simulatedTime: .zero, failures: []),
                                   recorded: nil).dropLast()
        let target = IsolatedTarget(local: IsolatedShrinkWireTests.ToyWire(), executable: "/bin/sh",
                                    arguments: ["-c", Self.script],
                                    environment: ["WATCHDOG_LOG=\(log)", "VERDICT=\(verdict)"],
                                    runTimeoutSeconds: 60, startTimeoutSeconds: 10)
        defer { target.finishChildren() }
        let verdicts = target.run(seeds: [Seed(1), Seed(2), Seed(3), Seed(4)])
        #expect(verdicts.map(\.stop) == [.quiescent, .timedOut, .timedOut, .timedOut], "\(verdicts.map(\.failures))")
        let told = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { line in
            Int(line.filter(\.isNumber)) ?? -1
        }
        // One child per hang, and the first child; seed 1 took at least 0.3 s, so 6 s or more.
        #expect(told.count == 3 && told[0] == 60_000, "\(told)")
        #expect(told.dropFirst().allSatisfy { $0 >= 6_000 && $0 < 60_000 }, "\(told)")
        let messages = verdicts.dropFirst().map { $0.failures.first?.message ?? "" }
        #expect(messages[0].contains("for 60 s of wall-clock time and was stopped"), "\(messages[0])")
        for message in messages.dropFirst() {
            #expect(message.contains(" s of wall-clock time (after an earlier run hung, later runs get 20 times the "
                                     + "slowest run that finished, at least 1 s, up to the run timeout of 60 s) and was "
                                     + "stopped"), "\(message)")
        }
    }

    @Test("the later limit: 20 times the slowest run, at least 1 s, at most the run timeout")
    func laterTimeout() {
        #expect(ChildPool.laterTimeout(full: 60_000, slowestRun: 0) == 1_000)
        #expect(ChildPool.laterTimeout(full: 60_000, slowestRun: 300) == 6_000)
        #expect(ChildPool.laterTimeout(full: 2_000, slowestRun: 500) == 2_000)
        #expect(ChildPool.laterTimeout(full: 500, slowestRun: 0) == 500, "never more than the run timeout")
        #expect(ChildPool.laterTimeout(full: 60_000, slowestRun: .max) == 60_000)
    }
}
