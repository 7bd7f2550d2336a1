import BackgroundTaskSimulator
import Testing
import UploadKitWorkloads

/// The team's tests: the fixed queue survives a campaign, and the old bug is still caught (so the
/// harness keeps watching for it).
@Suite("PhotoUploadQueue under the simulated iOS")
struct PhotoUploadQueueTests {
    @Test("the fixed queue ends every task it begins and holds none idle, in 300 randomized runs")
    func fixedQueuePasses() {
        let report = WorkloadCampaign(workload: UploadKitWorkloads.correct, runs: 300).run()
        #expect(report.passed, "\(report)")
    }

    @Test("the queue that begins its task when empty is caught holding it idle, and the seed replays")
    func emptyQueueBugIsCaught() throws {
        let campaign = WorkloadCampaign(workload: UploadKitWorkloads.beginsWhenEmpty, runs: 300)
        let report = campaign.run()
        let failure = try #require(report.failures.first { $0.invariant == "no-idle-task" }, "\(report)")
        let replayed = campaign.replay(seed: failure.seed)
        #expect(replayed.firstViolation(of: "no-idle-task") != nil)
    }
}
