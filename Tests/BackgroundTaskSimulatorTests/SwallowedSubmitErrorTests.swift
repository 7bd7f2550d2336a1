import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// `refresh-stays-scheduled` excuses a stopped refresh chain only when its last submit failed
/// for the user's reason (`unavailable`); a swallowed programming error is reported by name.
@Suite("Swallowed submit errors")
struct SwallowedSubmitErrorTests {
    /// The checker of `refresh-stays-scheduled` for a workload repeating `identifiers`.
    private func checker(_ identifiers: [String]) throws -> any InvariantChecker {
        let invariant = try #require(Invariant.named("refresh-stays-scheduled"))
        let info = WorkloadInfo(name: "test", summary: "test", permittedIdentifiers: identifiers,
                                backgroundModes: ["fetch"], repeatingRefreshIdentifiers: identifiers) { NoWork() }
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: info,
                           invariants: [invariant], horizon: .seconds(60))
        return invariant.makeChecker(spec)
    }

    /// Submits `r` successfully, then once more failing with `error`, and finishes the run.
    private func verdict(lastError error: TaskSchedulerError) throws -> [String] {
        let checker = try checker(["r"])
        let facts = RunFacts()
        _ = checker.observe(.requestSubmitted(identifier: "r", kind: "refresh", error: nil), at: .seconds(1), facts: facts)
        _ = checker.observe(.bgTaskLaunched(identifier: "r", task: 1, kind: "refresh"), at: .seconds(10), facts: facts)
        _ = checker.observe(.requestSubmitted(identifier: "r", kind: "refresh", error: "\(error)"), at: .seconds(11), facts: facts)
        _ = checker.observe(.bgTaskCompleted(identifier: "r", task: 1, success: true, repeated: false), at: .seconds(12), facts: facts)
        return checker.finish(at: .seconds(60), facts: facts)
    }

    @Test("unavailable (Background App Refresh off) is the user's choice and is excused")
    func unavailableIsExcused() throws {
        #expect(try verdict(lastError: .unavailable) == [])
    }

    @Test("a swallowed programming error stops the chain and is named with its fix", arguments: [
        (TaskSchedulerError.tooManyPendingTaskRequests, "one pending refresh request"),
        (TaskSchedulerError.notPermitted, "BGTaskSchedulerPermittedIdentifiers"),
    ])
    func programmingErrorIsReported(error: TaskSchedulerError, fix: String) throws {
        let messages = try verdict(lastError: error)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("\(error)") == true)
        #expect(messages.first?.contains(fix) == true)
    }

    @Test("a failed first submit still counts: the chain was meant to run")
    func failedFirstSubmitCounts() throws {
        let checker = try checker(["r"])
        let facts = RunFacts()
        let error = "\(TaskSchedulerError.tooManyPendingTaskRequests)"
        _ = checker.observe(.requestSubmitted(identifier: "r", kind: "refresh", error: error), at: .seconds(1), facts: facts)
        #expect(checker.finish(at: .seconds(60), facts: facts).count == 1)
    }

    @Test("news-digest: the second identifier's swallowed error is found; one identifier passes")
    func newsDigestPair() throws {
        let planted = try #require(WorkloadCatalog.variant(workload: "news-digest", variant: "second-refresh-identifier"))
        let correct = try #require(WorkloadCatalog.variant(workload: "news-digest", variant: "correct"))
        let invariant = try #require(Invariant.named("refresh-stays-scheduled"))
        func messages(_ entry: WorkloadCatalog.Variant) -> [String] {
            let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                               invariants: [invariant], horizon: .seconds(3_600))
            return (0..<60).flatMap { index in
                SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(0x5ec).derive(index: UInt64(index))))
                    .violations.map(\.message)
            }
        }
        let found = messages(planted)
        #expect(found.count > 30)
        #expect(found.allSatisfy { $0.contains("com.example.news.weather") && $0.contains("TooManyPendingTaskRequests") })
        #expect(messages(correct) == [])
    }
}

/// A workload that does nothing (the checker tests feed events by hand).
private final class NoWork: Workload {
    func didFinishLaunching(_ context: WorkloadContext) {}
}

/// The `fault-storm` environment preset: what it sets, and that a scenario's own fields win.
@Suite("Environment presets")
struct EnvironmentPresetTests {
    @Test("standard is the default environment; fault-storm raises every fault")
    func presets() {
        #expect(EnvironmentPreset.standard.configuration == EnvironmentConfig())
        let storm = EnvironmentPreset.faultStorm.configuration
        let standard = EnvironmentConfig()
        #expect(storm.faults.beginFailureProbability == 0.3)
        #expect(storm.faults.systemBusyProbability > standard.faults.systemBusyProbability)
        for action in [EnvironmentAction.earlyExpiry, .memoryPressureKill, .forceQuit, .backgroundRefreshOff, .networkDown] {
            #expect(storm.weights[action] > standard.weights[action], "\(action)")
        }
        #expect(storm.weights[.home] == standard.weights[.home])
    }

    @Test("a scenario's own fields override its preset")
    func fieldsOverridePreset() throws {
        let text = """
            {"name": "t", "workload": "token", "variant": "correct", "profile": "ios17",
             "campaign": {"runs": 1, "seed": "0x1", "horizonSeconds": 60},
             "environment": {"preset": "fault-storm", "faults": {"beginFailureProbability": 0.05}},
             "invariants": "all", "expect": "pass"}
            """
        let scenario = try ScenarioLoader.parse(Array(text.utf8), file: "t.json")
        #expect(scenario.runSpec.environment.faults.beginFailureProbability == 0.05)
        #expect(scenario.runSpec.environment.weights == EnvironmentPreset.faultStorm.configuration.weights)
    }
}
