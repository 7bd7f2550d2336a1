import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// A scenario's budget reaches the code it was written for under any campaign seed, not only
/// its own: each scenario that lists `requiredProbes` meets its expectation, at its own runs and
/// strategy, under two other seeds. Four scenarios once hit their rare path only under their
/// pinned seed (offline-articles at 100 and 150 runs, all random-walk runs; reader-prefetch's
/// digest loss, about 1 run in 3,000, at 5,000 and 10,000 runs) and missed it on 3 to 6 of 8
/// other seeds, so `bgsim fuzz --seed`, or a user's own seed, failed a correct gate.
@Suite struct RequiredProbeSeedTests {
    static let otherSeeds: [Seed] = [Seed(0x5eed_0000_0000_0001), Seed(0x5eed_0000_0000_0002)]

    /// The scenarios with required probes; the quick size leaves out budgets over 1,000 runs
    /// (the deep ones: 30,000 runs, seconds each in a release build).
    static let files: [String] = ScenarioExpectationTests.files.filter { file in
        guard let scenario = try? ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file) else {
            return false
        }
        return !scenario.requiredProbes.isEmpty && (TestSize.isCI || scenario.campaign.runs <= 1_000)
    }

    @Test("the scenario meets its expectation, required probes hit, under other campaign seeds", arguments: files)
    func requiredProbesHitUnderOtherSeeds(file: String) throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file)
        for seed in Self.otherSeeds {
            var plan = ScenarioPlan(for: scenario, jobs: 2)
            plan.options.seed = seed
            let outcome = try ScenarioCampaign.run(scenario, plan: plan)
            #expect(!outcome.verdict.isMissed,
                    "\(file) under campaign seed \(seed): \(outcome.verdict.headline) — raise its runs")
        }
    }

    @Test("the quick size still checks some scenario")
    func someScenarioIsChecked() {
        #expect(!Self.files.isEmpty)
    }
}
