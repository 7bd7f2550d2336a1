import BGSimCommands
import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import SimulationFormats
import Testing

/// One pipeline, three doors (issue 34): `bgsim fuzz --report` and the Swift API
/// (``WorkloadCampaign``) run the same scenario campaign (``ScenarioCampaign``), so one scenario
/// with one plan gives the same digest and the same failures through either; and the Swift API
/// replays saved failures first, as fuzz and check do.
@Suite struct OneCampaignPipelineTests {
    static let file = "download-manager-p1-overwritten-task-id-ios17.json"

    /// The Swift API campaign of the scenario file: same workload, OS, environment, invariants,
    /// horizon, runs, seed and strategy.
    static func swiftCampaign(_ scenario: Scenario, runs: Int) -> WorkloadCampaign {
        var campaign = WorkloadCampaign(
            workload: scenario.workload.info, profile: scenario.profile, environment: scenario.environment,
            invariants: scenario.invariants, horizon: .microseconds(scenario.campaign.horizon.microseconds), runs: runs,
            seed: scenario.campaign.seed, jobs: 1)
        campaign.strategy = scenario.strategy
        campaign.installsCrashHandler = false
        return campaign
    }

    @Test("one scenario and plan through bgsim fuzz --report and the Swift API give one digest and one failure list")
    func fuzzAndSwiftAPIAgree() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = folder + "/report.json"
        let fuzz = CLIRun(["fuzz", PackageRoot.scenario(Self.file), "--runs", "120", "--jobs", "1", "--quiet",
                           "--no-failure-db", "--report", report])
        #expect(fuzz.code == .success, "\(fuzz.stderr)")
        let json = try JSONParser().parse([UInt8](try #require(FileManager.default.contents(atPath: report))))

        let scenario = try ScenarioLoader.load(file: PackageRoot.scenario(Self.file))
        try #require(scenario.campaign.maxStepsPerRun == 1_000_000, "the Swift API campaign's step limit")
        let api = Self.swiftCampaign(scenario, runs: 120).run()

        #expect(json["summary"]?["traceDigest"]?.stringValue == "\(api.result.totals.digest.digest)")
        let fuzzFailures = (json["failures"]?.arrayValue ?? []).map {
            "\($0["invariant"]?.stringValue ?? "?") \($0["seed"]?.stringValue ?? "?")"
        }
        #expect(!fuzzFailures.isEmpty, "the planted bug is found")
        #expect(fuzzFailures == api.failures.map { "\($0.invariant) \($0.seed)" })
        #expect(api.failures.map(\.choices) == (json["failures"]?.arrayValue ?? []).map { $0["choices"]?.stringValue ?? "" })
    }

    @Test("a Swift API campaign with an in-memory store saves what it found and replays it first next time")
    func swiftAPIReplaysSavedFailuresFirst() throws {
        let scenario = try ScenarioLoader.load(file: PackageRoot.scenario(Self.file))
        let store = InMemoryFailureStore()
        var campaign = Self.swiftCampaign(scenario, runs: 60)
        campaign.failureStore = store
        let first = campaign.run()
        let found = try #require(first.failures.first, "the planted bug is found")
        #expect(first.outcome?.saved.replayed == 0)
        #expect(store.failures.map(\.invariant).contains(found.invariant))

        campaign.runs = 1
        let second = campaign.run()
        #expect(second.outcome?.saved.replayed == store.failures.count)
        #expect(second.savedStillFailing.map(\.invariant).contains(found.invariant))
        #expect(second.description.contains("\(found.invariant) (saved failure, still failing)"))
    }
}
