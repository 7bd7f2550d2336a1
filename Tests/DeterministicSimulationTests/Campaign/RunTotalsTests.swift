@testable import DeterministicSimulation
import SimulationFormats
import Testing

@Suite("Run totals")
struct RunTotalsTests {
    static let seed = Seed(0x7a11)

    /// The verdicts of runs 0..<count of the threshold target, by run index.
    static func verdicts(_ count: Int) -> [RunVerdict] {
        (0..<count).map { ThresholdTarget().run(choices: ChoiceSource(seed: seed.derive(index: UInt64($0))), keepTrace: false) }
    }

    @Test("totals are the same whichever worker counted which run, in whatever order they merge")
    func orderIndependent() {
        let verdicts = Self.verdicts(300)
        var inOrder = RunTotals()
        for (index, verdict) in verdicts.enumerated() { inOrder.add(verdict, runIndex: index) }
        for workers in [2, 3, 7] {
            var parts = [RunTotals](repeating: RunTotals(), count: workers)
            for (index, verdict) in verdicts.enumerated().reversed() { parts[index % workers].add(verdict, runIndex: index) }
            var merged = RunTotals()
            for part in parts.reversed() { merged.merge(part) }
            #expect(merged == inOrder, "workers: \(workers)")
        }
        #expect(inOrder.runs == 300 && inOrder.passed + inOrder.failed == 300)
        #expect(inOrder.violations.map(\.invariant) == ["big-value", "odd-count"]
                || inOrder.violations.map(\.invariant) == ["odd-count", "big-value"])
        let firsts = inOrder.violations.map(\.firstRun)
        #expect(firsts == firsts.sorted(), "violations are ordered by first run")
        for entry in inOrder.violations {
            let first = verdicts.firstIndex { $0.failures.contains { $0.invariant == entry.invariant } }
            #expect(entry.firstRun == first)
            #expect(entry.runs == verdicts.filter { $0.failures.contains { $0.invariant == entry.invariant } }.count)
        }
    }

    @Test("violations are ordered by first run, then by position in that run, however runs arrive")
    func violationOrder() {
        func verdict(_ invariants: [String]) -> RunVerdict {
            RunVerdict(digest: TraceDigest(1), eventCount: 1, simulatedTime: .zero,
                       failures: invariants.map { Violation(invariant: $0, message: "", time: .zero) })
        }
        var totals = RunTotals()
        totals.add(verdict(["a", "b", "a"]), runIndex: 9)
        totals.add(verdict(["c", "b"]), runIndex: 5)
        totals.add(verdict(["c"]), runIndex: 7)
        #expect(totals.violations.map { "\($0.invariant):\($0.runs)@\($0.firstRun)" } == ["c:2@5", "b:2@5", "a:1@9"])
    }

    @Test("stop reasons are counted per case; step and settle limits are what reports call stepLimitRuns")
    func stopCounts() {
        #expect(RunStop.allCases.map(\.rawValue) == ["quiescent", "settleLimit", "stepLimit", "crashed", "timedOut"])
        #expect(!RunStop.crashed.hitLimit && !RunStop.timedOut.hitLimit, "a crash or hang is a violation, not a limit")
        var stops = StopCounts()
        stops.add(.quiescent, count: 5)
        stops.add(.settleLimit)
        stops.add(.stepLimit, count: 2)
        var other = StopCounts()
        other.add(.settleLimit)
        stops.merge(other)
        #expect(stops[.quiescent] == 5 && stops[.settleLimit] == 2 && stops[.stepLimit] == 2)
        #expect(stops.hitLimit == 4)
    }

    @Test("a report's summary reads back into the totals it was written from")
    func reportRoundTrip() throws {
        let result = Campaign.run(ThresholdTarget(), options: CampaignOptions(seed: Self.seed, runs: 300, jobs: 2))
        #expect(result.totals.stops.hitLimit > 0, "the sample should include step-limited runs")
        let report = CampaignReport.json(result, scenarioName: "toy", scenarioFile: "toy.json", toolVersion: "1", toolName: "bgsim",
                                         replayCommand: { _ in "" })
        var read = try RunTotals(ReportReader(value: report, number: 1).member("summary"))
        #expect(read.stops.hitLimit == result.totals.stops.hitLimit)
        read.stops = result.totals.stops   // a report keeps only the number of limited runs
        #expect(read == result.totals)
    }

    @Test("the public report text is the deterministic writer's text of the report")
    func reportText() {
        let result = Campaign.run(ThresholdTarget(), options: CampaignOptions(seed: Self.seed, runs: 50, jobs: 1))
        let replay: (FailureRecord) -> String = { "replay \($0.seed)" }
        let text = CampaignReport.jsonText(result, scenarioName: "toy", scenarioFile: "toy.json", toolVersion: "1", toolName: "bgsim",
                                           replayCommand: replay)
        let value = CampaignReport.json(result, scenarioName: "toy", scenarioFile: "toy.json", toolVersion: "1", toolName: "bgsim",
                                        replayCommand: replay)
        #expect(text == JSONWriter().string(for: value))
        #expect(text.hasPrefix("{\n  \"schemaVersion\": 1,\n  \"seed\": \"0x0000000000007a11\""))
    }
}
