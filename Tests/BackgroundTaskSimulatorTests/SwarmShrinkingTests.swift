import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// A failure found by a swarm run shrinks like the same bug found by a random run: the shrinker
/// undoes the swarm mix in one step (`undoSwarm`, `zeroSwarm`), using the spans the run marks.
@Suite struct SwarmShrinkingTests {
    static let healthUpload = "health-upload-handler-returns-before-upload-ios17"

    static func scenario(_ name: String, strategy: ExplorationStrategy) throws -> Scenario {
        var scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + name + ".json")
        scenario.strategyOverride = strategy
        return scenario
    }

    @Test("a default run marks its coin and, when it swarms, every draw of the mix as spans; marking changes no draw")
    func marksTheCoinAndTheMix() throws {
        let scenario = try Self.scenario(Self.healthUpload, strategy: .default)
        let enabled = EnvironmentAction.allCases.filter { scenario.runSpec.environment.weights[$0] > 0 }.count
        var swarms = 0
        for seed: UInt64 in 1...8 {
            let random = ChoiceSource(seed: Seed(seed))
            let original = SimulationTarget(spec: scenario.runSpec).run(choices: random, keepTrace: false)
            let replay = ChoiceSource(replaying: random.recorded)
            let replayed = SimulationTarget(spec: scenario.runSpec).run(choices: replay, keepTrace: false)
            #expect(replayed.digest == original.digest, "seed: \(seed)")
            #expect(replay.recorded == random.recorded, "seed: \(seed)")
            #expect(random.spans.isEmpty, "random runs skip the bookkeeping")
            let coin = ChoiceSpan(kind: .strategyCoin, draws: 0..<1)
            if random.recorded.values[0] == 1 {
                swarms += 1
                // One draw per enabled action, then the pace.
                #expect(replay.spans == [coin, ChoiceSpan(kind: .swarmMix, draws: 1..<2 + enabled)], "seed: \(seed)")
            } else {
                #expect(replay.spans == [coin], "seed: \(seed)")
            }
        }
        #expect(swarms > 0 && swarms < 8, "both kinds of run among the seeds")
    }

    @Test("health-upload's first swarm-run failure under default shrinks to a random run near the random minimum")
    func swarmFailureShrinksLikeARandomOne() throws {
        let scenario = try Self.scenario(Self.healthUpload, strategy: .default)
        let invariant = try #require(scenario.expectation.expectedInvariant)
        let keeps: (RunVerdict) -> Bool = { verdict in verdict.failures.contains { $0.invariant == invariant } }
        // A default campaign's coin phase (its first runs are random runs; this scenario's budget
        // ends before it): the first run of the phase whose coin chose swarm and that shows the bug.
        let target = SimulationTarget(spec: scenario.runSpec)  // one run of `default`: a coin run
        let phase = ExplorationStrategy.defaultRandomRuns..<ExplorationStrategy.defaultRandomRuns + 1_000
        let failing = try #require(phase.lazy.compactMap { index in
            let source = ChoiceSource(seed: scenario.campaign.seed.derive(index: UInt64(index)))
            let verdict = target.run(choices: source, keepTrace: false)
            return keeps(verdict) && source.recorded.values.first == 1 ? source.recorded : nil
        }.first, "no swarm run of the campaign shows the bug")
        let result = Shrinker.shrink(failing, target: target, options: ShrinkOptions(), keeps: keeps)
        // The random strategy's shrink of the same bug reaches 3 actions (ShrinkToMinimumTests);
        // before undoSwarm a swarm failure of it kept 32 (forced background-refresh toggles that
        // carried time).
        let minimum = try #require(ShrinkToMinimumTests.minimalActions[Self.healthUpload]).actions
        #expect(result.actionCount <= minimum + 1,
                "bgsim replay Scenarios/\(Self.healthUpload).json --strategy default --choices \(result.choices.token)")
        #expect(result.choices.values.first == 0, "the shrunk run is a random run: \(result.choices.token)")
        let undone = try #require(result.passes.first { $0.name == "undoSwarm" })
        #expect(undone.accepted >= 1)
        let replay = ChoiceSource(replaying: result.choices)
        let verdict = target.run(choices: replay, keepTrace: false)
        #expect(keeps(verdict))
        #expect(replay.actions.count == result.actionCount)
    }
}
