import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Issue 8's resource limits: a workload that keeps scheduling work forever stops at the step
/// cap, is reported as such, and does not hang the campaign.
final class RunawayPoller: Workload, @unchecked Sendable {
    func didFinishLaunching(_ context: WorkloadContext) {
        let queue = context.application.backgroundQueue
        @Sendable func poll() { queue.asyncAfter(.milliseconds(1)) { poll() } }  // never stops
        poll()
    }
}

@Suite struct RunawayWorkloadTests {
    static let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(),
                              workload: WorkloadInfo(name: "runaway", summary: "polls forever") { RunawayPoller() },
                              invariants: Invariant.all, horizon: .seconds(3_600), maxSteps: 20_000)

    @Test func aRunThatNeverEndsStopsAtTheStepCap() {
        let outcome = SimulationRunner.run(Self.spec, choices: ChoiceSource(seed: Seed(1)))
        #expect(outcome.stop == .stepLimit)
        #expect(outcome.steps <= 20_000)
    }

    @Test func theCampaignCountsStepLimitedRuns() {
        let result = Campaign.run(SimulationTarget(spec: Self.spec), options: CampaignOptions(seed: Seed(2), runs: 5, jobs: 1))
        #expect(result.totals.stops[.stepLimit] == 5 && result.totals.stops.hitLimit == 5)
        let report = CampaignReport.json(result, scenarioName: "runaway", scenarioFile: "(test)", toolVersion: "test", toolName: "bgsim",
                                         replayCommand: { _ in "" })
        #expect(report["summary"]?["stepLimitRuns"] == .int(5))
    }
}
