@testable import DeterministicSimulation
import Foundation
import SimulationFormats
import Testing

/// An isolated run's verdict crosses a pipe as one JSON line; the parent must rebuild exactly the
/// verdict the child's run gave, or isolation would change results.
@Suite struct VerdictWireTests {
    static func verdict(_ counts: [Int], failures: [Violation] = []) -> RunVerdict {
        var coverage = Coverage()
        coverage.add("states", "background", count: counts[0])
        coverage.add("states", "sus;pended:odd,name", count: counts[1])
        coverage.add("faults", "network%Down\t\"quoted\"", count: counts[2])
        return RunVerdict(digest: TraceDigest(0x0123_4567_89ab_cdef), eventCount: 42, simulatedTime: .seconds(7),
                          failures: failures, coverage: coverage, stop: .settleLimit, cost: 99, overBudget: true)
    }

    @Test("a verdict, every field, its failures (tabs, newlines, quotes, backslashes) and coverage survive the wire exactly")
    func roundTrip() throws {
        var encoder = VerdictWire.Encoder()
        var decoder = VerdictWire.Decoder()
        let failing = Self.verdict([3, 0, 1], failures: [
            Violation(invariant: "no-double-end", message: "task 3\tended\ntwice; \"100%\" sure/\\really é", time: .seconds(2)),
            Violation(invariant: "no-crash", message: "", time: .zero),
        ])
        let recorded = VerdictWire.Recorded(outcomes: [0, 5, 1 << 40, .max], actions: [
            ChoiceAction(firstDraw: 0, stopDraw: 0, isSkippable: true), ChoiceAction(firstDraw: 1, stopDraw: 3, isSkippable: false),
            ChoiceAction(firstDraw: 4, stopDraw: 3, isSkippable: true, choice: ActionChoice(outcome: 7, possible: [2, 7, 0])),
            ChoiceAction(firstDraw: 5, stopDraw: 5, isSkippable: true, choice: ActionChoice(outcome: 0, possible: [])),
        ], idleSteps: [1..<3, 4..<4], fallbackCount: 2)
        let noIdle = VerdictWire.Recorded(outcomes: [4], actions: [], idleSteps: [], fallbackCount: 0)
        let passing = RunVerdict(digest: TraceDigest(.max), eventCount: 0, simulatedTime: VirtualTime(microseconds: .max),
                                 failures: [], coverage: Coverage(), stop: .quiescent, cost: 0, overBudget: false)
        for (verdict, record) in [(failing, recorded), (Self.verdict([0, 9, 0]), nil), (Self.verdict([1, 0, 2]), noIdle),
                                  (passing, nil)] as [(RunVerdict, VerdictWire.Recorded?)] {
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

    @Test("a verdict is one JSON object with named fields; the layout is sent once, counts sparse")
    func namedFields() throws {
        var encoder = VerdictWire.Encoder()
        let first = try JSONParser().parse(encoder.line(Self.verdict([0, 0, 5]), recorded: nil))
        let body = try #require(first["verdict"])
        #expect(body.objectValue?.keys == ["digest", "eventCount", "simulatedMicroseconds", "stop", "cost", "overBudget",
                                           "failures", "layout", "counts"])
        #expect(body["digest"] == "0123456789abcdef" && body["simulatedMicroseconds"] == 7_000_000)
        #expect(body["counts"] == [[], [0, 5]], "states has no non-zero count, faults' entry 0 has 5")
        let second = try JSONParser().parse(encoder.line(Self.verdict([1, 0, 0]), recorded: nil))
        #expect(second["verdict"]?["layout"] == nil, "the same layout is not sent again")
    }

    @Test("a malformed line (not JSON, a missing or mistyped field, a count outside the layout) is a typed error")
    func malformed() throws {
        var encoder = VerdictWire.Encoder()
        var decoder = VerdictWire.Decoder()
        let first = encoder.line(Self.verdict([0, 0, 5]), recorded: nil)
        _ = try decoder.verdict(first.dropLast()[...])
        let next = String(encoder.line(Self.verdict([1, 0, 0]), recorded: nil).dropLast())
        let drawn = ChoiceAction(firstDraw: 0, stopDraw: 0, isSkippable: true, choice: ActionChoice(outcome: 2, possible: [2]))
        let recorded = VerdictWire.Recorded(outcomes: [0], actions: [drawn], idleSteps: [], fallbackCount: 0)
        let withRecord = String(encoder.line(Self.verdict([1, 0, 0]), recorded: recorded).dropLast())
        #expect(withRecord.contains("[0,0,true,2,[2]]"))
        let cases = [
            (withRecord.replacingOccurrences(of: "[0,0,true,2,[2]]", with: "[0,0,true,2]"), "recorded"),
            (withRecord.replacingOccurrences(of: "[0,0,true,2,[2]]", with: #"[0,0,true,2,["2"]]"#), "recorded"),
            ("not json\tat all", "not a verdict message"),
            (next.replacingOccurrences(of: #""counts":[[0,1],[]]"#, with: #""counts":[[2,1],[]]"#), "counts[0][0]"),
            (next.replacingOccurrences(of: #""cost":99"#, with: #""cost":"99""#), "cost"),
            (next.replacingOccurrences(of: #""digest":"0123456789abcdef","#, with: ""), "digest"),
            (#"{"run":{"seed":"0x0000000000000001","record":false}}"#, "not a verdict message"),
        ]
        for (line, problem) in cases {
            #expect(line != next)
            #expect(throws: VerdictWire.MalformedLine.self) { try decoder.verdict(line[...]) }
            do {
                _ = try decoder.verdict(line[...])
            } catch {
                #expect(error.problem == problem)
                #expect(error.description.hasPrefix("an isolated worker sent an unreadable line (\(problem)): "))
            }
        }
        _ = try decoder.verdict(next[...])  // a bad line does not spoil the connection's layout
    }

    @Test("a request names a seed, a choice sequence or a plan with its fill seed, and reads back")
    func requests() throws {
        func parse(_ line: String) -> VerdictWire.Request? {
            guard case .run(let request)? = VerdictWire.parseMessage(line.dropLast()[...]) else { return nil }
            return request
        }
        let seed = try #require(parse(VerdictWire.request(seed: Seed(0xdead), record: false, budget: nil)))
        #expect(seed.seed == Seed(0xdead) && seed.choices == nil && !seed.record && seed.budget == nil)
        let choices = try #require(parse(VerdictWire.request(choices: ChoiceSequence([1, 2, 3]), record: true, budget: 500)))
        #expect(choices.choices == ChoiceSequence([1, 2, 3]) && choices.record && choices.budget == 500)
        let plan = try #require(parse(VerdictWire.request(plan: ChoiceSequence([7]), filling: Seed(9), record: true, budget: 0)))
        #expect(plan.choices == ChoiceSequence([7]) && plan.fillSeed == Seed(9) && plan.seed == nil && plan.budget == 0)
        guard case .watchdog(let milliseconds)? = VerdictWire.parseMessage(VerdictWire.watchdog(milliseconds: 250).dropLast()[...])
        else { Issue.record("the watchdog line does not read"); return }
        #expect(milliseconds == 250)
        #expect(parse(#"{"run":{"seed":"not-a-seed","record":false}}"# + "\n") == nil)
        #expect(parse(#"{"run":{"seed":"0x01","choices":"c1.","record":false}}"# + "\n") == nil)
        #expect(VerdictWire.parseMessage("S\t7\t0\t-1") == nil)
    }

    @Test("a crash banner puts the run seed wherever {seed} stands, its lines in the installed program's name")
    func bannerText() {
        let banner = CrashBanner(run: "run seed {seed} of scenario s (s.json)", replay: "tool replay s.json --seed {seed}")
        #expect(banner.text(seed: Seed(0x2a)) == " during run seed 0x000000000000002a of scenario s (s.json)\n"
            + "\(CrashWording.current.program): replay: tool replay s.json --seed 0x000000000000002a\n")
    }
}
