import DeterministicSimulation
import Foundation
import Testing

// The README's "Test your own code" example, compiled and run here; `readmeShowsTheExample`
// checks README.md shows it verbatim.

// README-BEGIN swift-api
import BackgroundTaskKit
import BackgroundTaskSimulator
import BackgroundTaskSimulatorTesting

/// The code under test: uploads the draft whenever the app leaves the foreground. The harness
/// makes it and calls it on the main actor, as UIKit does an app delegate.
@MainActor final class DraftUploader: Workload {
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground {
            let work = context.startWork("upload-draft")  // tells the harness work is in flight
            let task = BackgroundTaskToken(name: "upload-draft", host: app) { work.cancel() }
            app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                if !work.isDone { work.finish() }
                task.invalidate()
            }
        }
    }
}

@Test func draftUploaderEndsEveryTask() async {
    let campaign = WorkloadCampaign(
        workload: WorkloadInfo(name: "draft-uploader", summary: "uploads the draft on leaving the foreground") {
            DraftUploader()
        },
        runs: 500)
    await campaign.expectNoViolations()  // one issue per violated invariant, at this line
}
// README-END

/// The same uploader with the classic bug: the id is kept, but the expiration handler does not
/// end the task.
final class LeakyDraftUploader: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground {
            let work = context.startWork("upload-draft")
            let id = app.beginBackgroundTask(withName: "upload-draft") { work.cancel() }
            app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                guard !work.isDone else { return }
                work.finish()
                app.endBackgroundTask(id)
            }
        }
    }
}

@Suite struct ReadmeSwiftAPITests {
    @Test func aBuggyWorkloadFailsWithAReplayableSeed() throws {
        let campaign = WorkloadCampaign(
            workload: WorkloadInfo(name: "leaky-draft-uploader", summary: "never ends on expiry") {
                LeakyDraftUploader()
            },
            runs: 200)
        let report = campaign.run()
        #expect(!report.passed)
        let failure = try #require(report.failures.first { $0.invariant == "expiry-ends-task" })
        #expect(report.description.contains("campaign.replay(seed: \(failure.seed))"))
        let replayed = campaign.replay(seed: failure.seed)
        #expect(replayed.violations.contains { $0.invariant == "expiry-ends-task" })
        let shrunk = try campaign.replay(choices: failure.choices)
        #expect(shrunk.violations.contains { $0.invariant == "expiry-ends-task" })
        #expect(shrunk.eventCount == failure.shrunkEventCount)
        #expect(report.json["failures"]?.arrayValue?.isEmpty == false)
    }

    @Test func theReportDoesNotDependOnJobs() {
        let workload = WorkloadInfo(name: "draft-uploader", summary: "") { DraftUploader() }
        let one = WorkloadCampaign(workload: workload, runs: 100, jobs: 1).run()
        let two = WorkloadCampaign(workload: workload, runs: 100, jobs: 2).run()
        #expect(one.result.totals.digest == two.result.totals.digest)
        #expect(one.passed && two.passed)
    }

    @Test func readmeShowsTheExample() throws {
        try ReadmeExample.expectShown("swift-api", from: #filePath)
    }
}
