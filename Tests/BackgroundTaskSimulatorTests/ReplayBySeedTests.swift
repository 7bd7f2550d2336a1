import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// A run seed alone replays its run, whatever strategy the campaign ran it under. A `default`
/// campaign's runs from 100 on are coin runs (their first draw picks random or swarm); a replay
/// by seed without a strategy used to run them as `random` runs, a different run, so
/// `campaign.replay(seed: failure.seed)` (the call `WorkloadReport`'s own example shows) and
/// `bgsim replay FILE --seed S` missed the failure they were given. The seed says which run it
/// was (`Seed.runIndex(of:)`), and so which strategy.
@Suite("Replay by run seed")
struct ReplayBySeedTests {
    static let healthUpload = "health-upload-handler-returns-before-upload-ios17"

    static func scenario(_ name: String) throws -> Scenario {
        try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + name + ".json")
    }

    @Test("forRunSeed gives a default campaign's run its strategy; other seeds and set strategies keep theirs")
    func strategyOfARunSeed() throws {
        let scenario = try Self.scenario(Self.healthUpload)
        #expect(scenario.strategy == .default && scenario.runStrategy == .random)
        let seed = scenario.campaign.seed
        #expect(scenario.forRunSeed(seed.derive(index: 0)).runStrategy == .random)
        #expect(scenario.forRunSeed(seed.derive(index: 99)).runStrategy == .random)
        #expect(scenario.forRunSeed(seed.derive(index: 100)).runStrategy == .default)
        #expect(scenario.forRunSeed(seed.derive(index: 50_000)).runStrategy == .default)
        #expect(scenario.forRunSeed(Seed(0x1234_5678)).runStrategy == .random, "not a run of this campaign")
        var swarm = scenario
        swarm.strategyOverride = .swarm
        #expect(swarm.forRunSeed(seed.derive(index: 500)).runStrategy == .swarm)
    }

    @Test("a coin run's failure replays from its seed alone, from a scenario and from a WorkloadCampaign")
    func coinRunFailureReplays() throws {
        let scenario = try Self.scenario(Self.healthUpload)
        let invariant = try #require(scenario.expectation.expectedInvariant)
        // The first run of the campaign's coin phase that shows the bug, found as the campaign
        // runs it (the recipe of its original run).
        let phase = ExplorationStrategy.defaultRandomRuns..<ExplorationStrategy.defaultRandomRuns + 400
        let (runSeed, original) = try #require(phase.lazy.compactMap { index -> (Seed, RunOutcome)? in
            let runSeed = scenario.campaign.seed.derive(index: UInt64(index))
            let outcome = ReplayRecipe(scenario: scenario.forRun(index), source: .seed(runSeed)).run()
            return outcome.firstViolation(of: invariant) != nil ? (runSeed, outcome) : nil
        }.first, "no coin run of the campaign shows the bug")

        let replayed = scenario.replay(seed: runSeed.rawValue)
        #expect(replayed.digest == original.digest)
        #expect(replayed.firstViolation(of: invariant) != nil)
        // As a random run the same seed is another run: the test tells the two apart.
        #expect(scenario.replay(seed: runSeed.rawValue, strategy: .random).digest != original.digest)

        let campaign = WorkloadCampaign(workload: scenario.workload.info, profile: scenario.profile,
                                        environment: scenario.environment, runs: 1_000, seed: scenario.campaign.seed)
        #expect(campaign.replay(seed: runSeed).digest == original.digest)
        #expect(campaign.replay(seed: runSeed.rawValue).firstViolation(of: invariant) != nil)
    }
}
