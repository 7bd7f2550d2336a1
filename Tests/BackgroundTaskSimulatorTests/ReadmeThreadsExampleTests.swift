import DeterministicSimulation
import Foundation
import Testing

// The README's synchronisation example, compiled and run here; `readmeShowsTheThreadsExample`
// checks README.md shows it verbatim.

// README-BEGIN threads
import BackgroundTaskKit
import BackgroundTaskSimulator

/// Uploads photos on a background thread on every background entry; the count is shared.
final class PhotoUploader: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?
    private var uploaded = 0  // guarded by `lock`

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let lock = context.makeLock("uploaded")  // a simulated lock: never a real one
        observation = context.onDidEnterBackground { [self] in
            let work = context.startWork("upload-photos")
            let task = BackgroundTaskToken(name: "upload-photos", host: app) { work.cancel() }
            app.backgroundQueue.async {
                app.performBlockingWork(for: .seconds(2))  // blocks this thread only
                lock.withLock { self.uploaded += 1 }
                if !work.isDone { work.finish() }
                task.invalidate()
            }
        }
    }
}
// README-END

@Suite struct ReadmeThreadsExampleTests {
    @Test func thePhotoUploaderPassesUnderPreemption() {
        let report = WorkloadCampaign(
            workload: WorkloadInfo(name: "photo-uploader", summary: "uploads on background entry") { PhotoUploader() },
            runs: 300
        ).run()
        #expect(report.passed, "\(report)")
    }

    @Test func readmeShowsTheThreadsExample() throws {
        try ReadmeExample.expectShown("threads", from: #filePath, in: ReadmeExample.testingArticle)
    }
}
