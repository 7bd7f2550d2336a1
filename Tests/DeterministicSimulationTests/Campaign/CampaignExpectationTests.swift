import DeterministicSimulation
import Testing

/// The gate's judgement: an expected violation is a finding, a missed expectation a failure.
@Suite struct CampaignExpectationTests {
    static let ids = ["every-begin-ended", "no-double-end", "no-watchdog-kill"]

    @Test("a planted bug found as expected is met, and the other violations it shows are listed")
    func plantedFound() {
        let verdict = CampaignExpectation.violation("no-double-end").verdict(
            violations: [("no-watchdog-kill", 3), ("no-double-end", 19)], runs: 20, invariants: Self.ids)
        #expect(verdict.outcome == .met)
        #expect(verdict.headline == "found no-double-end as expected (19 of 20 runs); also violated: no-watchdog-kill in 3 of 20 runs")
        #expect(verdict.heldText == "held: every-begin-ended")
    }

    @Test("a planted bug that was not found is missed, even when other invariants were violated")
    func plantedMissed() {
        let verdict = CampaignExpectation.violation("no-double-end").verdict(
            violations: [("no-watchdog-kill", 3)], runs: 20, invariants: Self.ids)
        #expect(verdict.isMissed)
        #expect(verdict.headline == "the planted bug was not found: no no-double-end violation in 20 runs "
            + "(violated instead: no-watchdog-kill in 3 of 20 runs)")
    }

    @Test("pass is met only when nothing was violated")
    func pass() {
        let held = CampaignExpectation.pass.verdict(violations: [], runs: 100, invariants: Self.ids)
        #expect(held.outcome == .met && held.headline == "every invariant held in 100 runs, as expected")
        #expect(held.held == Self.ids)
        let broken = CampaignExpectation.pass.verdict(violations: [("every-begin-ended", 1)], runs: 100, invariants: Self.ids)
        #expect(broken.isMissed && broken.headline == "expected no violation, but found every-begin-ended in 1 of 100 runs")
    }

    @Test("a campaign that held says what its runs rule out; an exhaustive search does not (its runs are no sample)")
    func passRulesOut() {
        var result = CampaignResult.nothingRun(options: CampaignOptions(seed: Seed(1), runs: 300, jobs: 1))
        result.totals.runs = 300
        let held = CampaignExpectation.pass.verdict(for: result, invariants: Self.ids)
        #expect(held.headline == "every invariant held in 300 runs, as expected; rules out, at 95% confidence, any "
            + "failure that shows in at least 1 run in 100")
        result.exhaustive = ExhaustiveStats(depth: 4)
        #expect(CampaignExpectation.pass.verdict(for: result, invariants: Self.ids).headline
            == "every invariant held in 300 runs, as expected")
    }

    @Test("one shard that did not find the planted bug is undecided, not missed; pass is judged per shard")
    func shards() {
        let shard = CampaignExpectation.violation("no-double-end").verdict(
            violations: [], runs: 10, invariants: Self.ids, sharded: true)
        #expect(shard.outcome == .undecided && !shard.isMissed)
        let violatedShard = CampaignExpectation.pass.verdict(
            violations: [("no-double-end", 1)], runs: 10, invariants: Self.ids, sharded: true)
        #expect(violatedShard.isMissed)
    }

    @Test("the JUnit test case is named after the expectation")
    func names() {
        #expect(CampaignExpectation.pass.testCaseName == "expect pass")
        #expect(CampaignExpectation.violation("no-double-end").testCaseName == "expect violation no-double-end")
    }
}
