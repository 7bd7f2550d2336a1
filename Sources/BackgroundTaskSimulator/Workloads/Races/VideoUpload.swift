import BackgroundTaskKit

/// A video app that uploads a clip in chunks when the user leaves it, under a
/// ``BackgroundTaskToken``: the upload worker (global queue) stores the server's upload id when
/// it opens the upload session and clears it when the last chunk is in; the expiration handler
/// (main, A3.1) reads the stored id to keep it for a resumed upload on the next launch, and
/// clears it.
///
/// ```swift
/// uploadID.value = openSession()             // worker, on the global queue
/// // expiration handler, on main:
/// if let id = uploadID.value { keepForResume(id); uploadID.value = nil }
/// ```
///
/// Planted (`isolated: false`): the id is written on the worker and read and cleared on main
/// with nothing ordering them, a data race on `uploadID` whenever the handler runs during an
/// upload that outlasts the background time (A1.4); on a device the handler may read a torn or
/// stale id and resume the wrong upload. Correct twin (`isolated: true`): the same code with
/// every access to the id on a private serial queue (`uploadState.sync { … }`), the isolation
/// queue pattern; its blocks are short, so the handler returns in time (A3.5).
///
/// Expected: `no-data-race` planted; passes every invariant isolated.
final class VideoUpload: Workload, @unchecked Sendable {
    // @unchecked: `uploads` is main's; each upload's id is a `SharedState` (isolated: on its queue).
    private let isolated: Bool
    private var observation: LifecycleObservation?
    /// Every upload of this process, kept while it lives, as ``ReceiptUpload`` keeps its uploads (and why).
    private var uploads: [Upload] = []

    init(isolated: Bool) { self.isolated = isolated }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in uploads.append(Upload.start(context, isolated: isolated)) }
    }

    /// One clip's upload: its server id and the queue that guards it (isolated only).
    private final class Upload: Sendable {
        let uploadID: SharedState<Int?>
        let uploadState: (any WorkQueue)?

        init(_ app: SimulatedApplication, isolated: Bool) {
            uploadID = app.makeShared(name: "video-upload uploadID", initialValue: nil)
            uploadState = isolated ? app.makeSerialQueue(label: "video-upload state") : nil
        }

        /// Runs `body` where the id may be touched: on the state queue when isolated.
        func withID<T>(_ body: () -> T) -> T {
            if let uploadState { uploadState.sync(body) } else { body() }
        }

        /// On main, at background entry: the token's task covers the upload on the global queue.
        static func start(_ context: WorkloadContext, isolated: Bool) -> Upload {
            let app = context.application
            let upload = Upload(app, isolated: isolated)
            let work = context.startWork("video-upload")
            let task = BackgroundTaskToken(name: "video-upload", host: app) {
                work.cancel()
                upload.withID {  // keep the id to resume the upload on the next launch
                    guard upload.uploadID.value != nil else { return }
                    upload.uploadID.value = nil
                }
            }
            guard task.isRunning else { return upload }  // refused (A2.1): the handler cancelled the work
            let chunks = context.drawInt(in: 2...30)
            app.backgroundQueue.async {
                let id = context.drawInt(in: 1...999_999)  // the server's id for the new session
                upload.withID { upload.uploadID.value = id }
                for _ in 0..<chunks where !work.isDone {
                    app.performBlockingWork(for: context.drawDuration(in: .milliseconds(500) ... .seconds(5)))
                }
                upload.withID { upload.uploadID.value = nil }
                work.finish()
                task.invalidate()
            }
            return upload
        }
    }
}
