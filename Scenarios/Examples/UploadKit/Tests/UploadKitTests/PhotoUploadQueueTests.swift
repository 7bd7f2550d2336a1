import BackgroundTaskSimulator
import BackgroundTaskSimulatorTesting
import Testing
import UploadKitWorkloads

/// The team's tests: the fixed queue survives a campaign, and the old bug is still caught (so the
/// harness keeps watching for it).
@Suite("PhotoUploadQueue under the simulated iOS")
struct PhotoUploadQueueTests {
    @Test("the fixed queue ends every task it begins and holds none idle")
    func fixedQueuePasses() async throws {
        var campaign = WorkloadCampaign(workload: UploadKitWorkloads.correct, runs: 300)
        // Runs in child processes that re-run this test: a crash in the queue would be a
        // `no-crash` finding here, and the other tests would still run.
        campaign.isolation = try .testProcesses()
        await campaign.expectNoViolations()
    }

    @Test("the old bug, a task begun before the queue is checked, is still caught")
    func emptyQueueBugIsCaught() async {
        let campaign = WorkloadCampaign(workload: UploadKitWorkloads.beginsWhenEmpty, runs: 300)
        await campaign.expectViolation("no-idle-task")
    }

    @Test("the other old bug, the queue's array touched on the session's queue, is a data race")
    func offMainCompletionIsARace() async {
        let campaign = WorkloadCampaign(workload: UploadKitWorkloads.completesOffMain, runs: 100)
        await campaign.expectViolation("no-data-race")
    }

    @Test("the scenario files meet their expectations, as `upload-bgsim check` says")
    func scenarioFilesMeetTheirExpectations() async throws {
        // The gate of `upload-bgsim check Scenarios` in a test: one issue per scenario that missed.
        let workloads = try WorkloadRegistry(UploadKitWorkloads.all)
        await ScenarioGate.expectExpectationsMet(in: ["Scenarios"], workloads: workloads)
    }
}
