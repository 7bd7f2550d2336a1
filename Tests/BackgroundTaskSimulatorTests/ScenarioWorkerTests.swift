import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// Both ends of the isolated worker protocol live in `ScenarioWorker`: what a parent starts its
/// child with is what the child reads back, for `bgsim` and `WorkloadCampaign` alike.
@Suite struct ScenarioWorkerTests {
    static func scenario() throws -> Scenario {
        try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/token-correct-ios17.json")
    }

    @Test("a phase's worker arguments name the scenario file absolutely and its run's strategy, and read back")
    func argumentsRoundTrip() throws {
        var scenario = try Self.scenario()
        scenario.file = "Scenarios/token-correct-ios17.json"
        let arguments = ScenarioWorker.arguments(for: scenario.forRun(0))
        #expect(arguments.first == ScenarioWorker.commandName)
        let request = try #require(ScenarioWorker.Request(Array(arguments.dropFirst())))
        #expect(request.file == FileManager.default.currentDirectoryPath + "/Scenarios/token-correct-ios17.json")
        #expect(request.strategy == scenario.forRun(0).strategy)
        #expect(ScenarioWorker.arguments(for: try Self.scenario()).count == 2)  // the file's own strategy: none sent
    }

    @Test("a worker refuses arguments that are not one file and an optional strategy name")
    func malformedRequests() {
        #expect(ScenarioWorker.Request([]) == nil)
        #expect(ScenarioWorker.Request(["a.json", "sideways"]) == nil)
        #expect(ScenarioWorker.Request(["a.json", "random", "extra"]) == nil)
    }

    @Test("a scenario plan starts its workers with ScenarioWorker's arguments unless told otherwise")
    func planDefault() throws {
        let scenario = try Self.scenario().forRun(0)
        #expect(ScenarioPlan(for: scenario).workerArguments(scenario) == ScenarioWorker.arguments(for: scenario))
    }

    @Test("a named file that is not *.json is refused with a sentence, not a JSON parse error")
    func namedFileMustBeJSON() throws {
        do {
            _ = try ScenarioLoader.load(namedFile: ScenarioExpectationTests.directory + "/README.md", workloads: .builtIn)
            Issue.record("Scenarios/README.md was read as a scenario")
        } catch {
            #expect(error.description.contains("README.md: not a scenario file (a .md file)"))
        }
    }
}
