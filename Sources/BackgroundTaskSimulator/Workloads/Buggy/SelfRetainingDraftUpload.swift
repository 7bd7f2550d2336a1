import BackgroundTaskKit

/// A draft upload object that owns its task token and lets the token's release end the task,
/// as the token's documentation allows: "the task ends when the last reference is released".
/// But the expiration handler passed to the token captures the upload strongly (`self.cancel()`),
/// and the upload holds the token: a reference cycle. When the upload finishes, the code drops
/// its last outside reference and expects the task to end; the cycle keeps both alive, so the
/// task stays held with nothing to do until the system's expiry ends it (A4.5: the idle task
/// burns the app's shared background time; A6.1).
///
/// Expected: `no-idle-task`.
final class SelfRetainingDraftUploader: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; `uploads` is touched on main only.
    private var observation: LifecycleObservation?
    private var uploads: [DraftUpload] = []

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in
            let upload = DraftUpload(context)
            uploads.append(upload)
            upload.start { [self] in uploads.removeAll { $0 === upload } }  // drop it when done
        }
    }
}

/// One upload and the task that covers it.
final class DraftUpload: @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; fields are set on main.
    private let context: WorkloadContext
    private var task: BackgroundTaskToken?
    private var work: WorkItem?

    init(_ context: WorkloadContext) { self.context = context }

    func start(whenDone: @escaping @Sendable () -> Void) {
        let app = context.application
        work = context.startWork("upload-draft")
        task = BackgroundTaskToken(name: "upload-draft", host: app) { self.cancel() }  // the cycle
        app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
            app.mainQueue.async { [self] in
                if let work, !work.isDone { work.finish() }
                whenDone()  // "releases the upload, and with it the token"
            }
        }
    }

    private func cancel() {
        work?.cancel()
    }
}
