@testable import DeterministicSimulation
import Foundation
import Testing

/// An isolated run's verdict crosses a pipe as a text line; the parent must rebuild exactly the
/// verdict the child's run gave, or isolation would change results.
@Suite struct VerdictWireTests {
    static func verdict(_ counts: [Int], failures: [Violation] = []) -> RunVerdict {
        var coverage = Coverage()
        coverage.add("states", "background", count: counts[0])
        coverage.add("states", "sus;pended:odd,name", count: counts[1])
        coverage.add("faults", "network%Down", count: counts[2])
        return RunVerdict(digest: TraceDigest(0x0123_4567_89ab_cdef), eventCount: 42, simulatedTime: .seconds(7),
                          failures: failures, coverage: coverage, stop: .settleLimit, cost: 99, overBudget: true)
    }

    @Test("a verdict, its failures (tabs, newlines, percent signs) and coverage survive the wire exactly")
    func roundTrip() throws {
        var encoder = VerdictWire.Encoder()
        var decoder = VerdictWire.Decoder()
        let failing = Self.verdict([3, 0, 1], failures: [
            Violation(invariant: "no-double-end", message: "task 3\tended\ntwice; 100% sure/really", time: .seconds(2)),
            Violation(invariant: "no-crash", message: "", time: .zero),
        ])
        let recorded = VerdictWire.Recorded(outcomes: [0, 5, 1 << 40], actions: [ChoiceAction(firstDraw: 0, stopDraw: 0, isSkippable: true)],
                                            idleSteps: [1..<3], fallbackCount: 2)
        let noIdle = VerdictWire.Recorded(outcomes: [4], actions: [], idleSteps: [], fallbackCount: 0)
        for (verdict, record) in [(failing, recorded), (Self.verdict([0, 9, 0]), nil), (Self.verdict([1, 0, 2]), noIdle)]
            as [(RunVerdict, VerdictWire.Recorded?)] {
            let line = encoder.line(verdict, recorded: record)
            #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
            let (decoded, decodedRecord) = try decoder.verdict(line.dropLast()[...])
            #expect(decoded.digest == verdict.digest && decoded.eventCount == verdict.eventCount)
            #expect(decoded.simulatedTime == verdict.simulatedTime && decoded.stop == verdict.stop)
            #expect(decoded.cost == verdict.cost && decoded.overBudget == verdict.overBudget)
            #expect(decoded.failures == verdict.failures)
            #expect(decoded.coverage == verdict.coverage)
            #expect(decodedRecord == record)
        }
    }

    @Test("counts travel sparse (only the non-zero ones), and a count outside the layout is a malformed line")
    func sparseCounts() throws {
        var encoder = VerdictWire.Encoder()
        var decoder = VerdictWire.Decoder()
        let line = encoder.line(Self.verdict([0, 0, 5]), recorded: nil)
        let fields = line.dropLast().split(separator: "\t", omittingEmptySubsequences: false)
        #expect(fields[fields.count - 2] == ";0=5", "states has no non-zero count, faults' entry 0 has 5")
        _ = try decoder.verdict(line.dropLast()[...])
        let next = encoder.line(Self.verdict([1, 0, 0]), recorded: nil)
        let outside = next.replacingOccurrences(of: "\t0=1;\t", with: "\t2=1;\t")
        #expect(outside != next)
        #expect(throws: VerdictWire.MalformedLine.self) { try decoder.verdict(outside.dropLast()[...]) }
    }

    @Test("a request names a seed or a choice sequence, and reads back")
    func requests() throws {
        let seed = try #require(VerdictWire.parseRequest(VerdictWire.request(seed: Seed(0xdead), record: false, budget: nil).dropLast()[...]))
        #expect(seed.seed == Seed(0xdead) && seed.choices == nil && !seed.record && seed.budget == nil)
        let choices = try #require(VerdictWire.parseRequest(
            VerdictWire.request(choices: ChoiceSequence([1, 2, 3]), record: true, budget: 500).dropLast()[...]))
        #expect(choices.choices == ChoiceSequence([1, 2, 3]) && choices.record && choices.budget == 500)
        #expect(VerdictWire.parseRequest("S\tnot-a-seed\t0\t-1") == nil)
    }

    @Test("a crash banner puts the run seed wherever {seed} stands, its lines in the installed program's name")
    func bannerText() {
        let banner = CrashBanner(run: "run seed {seed} of scenario s (s.json)", replay: "tool replay s.json --seed {seed}")
        #expect(banner.text(seed: Seed(0x2a)) == " during run seed 0x000000000000002a of scenario s (s.json)\n"
            + "\(CrashWording.current.program): replay: tool replay s.json --seed 0x000000000000002a\n")
    }
}
