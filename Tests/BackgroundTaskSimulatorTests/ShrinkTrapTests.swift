import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Issue 32's deterministic reproduction of the shrinker's range trap: a planted-bug scenario
/// with a single environment action enabled has actions that no draw can stop (forced, the only
/// one possible), and `foldTime` built a reversed range for them. The test process surviving is
/// half of each assertion.
@Suite struct ShrinkTrapTests {
    /// `file`'s scenario with every environment action at weight 0 but `action`.
    static func scenario(_ file: String, onlyEnabling action: EnvironmentAction) throws -> Scenario {
        var scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file + ".json")
        var weights = ActionWeights()
        weights[action] = 1
        scenario.environment.weights = weights
        return scenario
    }

    @Test("background-queue-p3 with only appSwitcher enabled shrinks its failure without a trap, and the result replays")
    func singleActionScenarioShrinks() throws {
        let file = "background-queue-p3-async-end-ios17"
        let scenario = try Self.scenario(file, onlyEnabling: .appSwitcher)
        let planted = try #require(scenario.shrinkPlantedBug(), "no failure in the campaign of \(file)")
        let keeps: (RunVerdict) -> Bool = { verdict in verdict.failures.contains { $0.invariant == planted.invariant } }
        let replay = ChoiceSource(replaying: planted.shrink.choices)
        let verdict = SimulationTarget(spec: scenario.forRun(planted.runIndex).runSpec).run(choices: replay, keepTrace: false)
        #expect(keeps(verdict), "run \(planted.runIndex) of \(file) with only appSwitcher: \(planted.shrink.choices.token)")
        #expect(planted.shrink.actionCount <= planted.originalActionCount)
    }
}
