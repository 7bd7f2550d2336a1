import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Under Swift Testing every `throw` in the process takes the Testing library's lock (its
/// `swift_willThrow` hook records a backtrace), and the data-race detector took that lock for the
/// app's synchronization: two threads of a run that threw were ordered by it, so a race between
/// what one did before its `throw` and what the other did after its own was missed whenever the
/// first threw first (found by a probe of app code, through the hook's cost in a busy loop). A
/// test framework's locks are not the app's: the race is found in every run.
@Suite(.enabled(if: VirtualClocks.isSupported && Scheduler.tracksPlainLocks))
struct ThrowingThreadsRaceTests {
    @Test("two blocks that each throw and catch, and count with no lock: the race is found in every run")
    func raceAcrossThrowsIsFound() {
        let info = WorkloadInfo(name: "throwing-counters", summary: "counts around caught errors", sharesState: true) {
            CountsAroundErrors()
        }
        let report = WorkloadCampaign(workload: info, runs: 100, seed: Seed(0x7e40)).run()
        #expect(report.failures.map(\.invariant) == ["no-data-race"], "\(report)")
        #expect(report.result.totals.failed == 100, "\(report)")
    }
}

/// A parse error handled where it happens.
private struct ParseError: Error {}

/// At launch two global blocks parse a payload, whose parser throws and the block catches, and
/// count the parses in a shared counter without a lock: the first counts before its parse, the
/// second after its own.
private final class CountsAroundErrors: Workload, @unchecked Sendable {
    // @unchecked: `parses` is the race under test.
    private var parses = 0

    func didFinishLaunching(_ context: WorkloadContext) {
        DispatchQueue.global().async { [self] in
            parses += 1
            _ = try? Self.parse("header")
        }
        DispatchQueue.global().async { [self] in
            _ = try? Self.parse("body")
            parses += 1
        }
    }

    private static func parse(_ payload: String) throws -> Int {
        throw ParseError()
    }
}
