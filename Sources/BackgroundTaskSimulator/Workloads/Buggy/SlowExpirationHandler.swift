import BackgroundTaskKit

/// A slow expiration handler: on expiry the uploader synchronously writes its unsent events to
/// disk (here 5 s of blocking work) and only then ends the task. The task is ended inside the
/// handler, but the handlers run past the system's limit on their total time (A3.5, a few
/// seconds) and the watchdog kills the app anyway.
///
/// Expected: `expiration-handlers-return-in-time`.
final class SlowExpirationHandlerUploader: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground {
            let work = context.startWork("flush-events")
            let box = IdentifierBox()
            box.id = app.beginBackgroundTask(withName: "flush-events") {
                work.cancel()
                app.performBlockingWork(for: .seconds(5))  // the bug: saves to disk inside the handler
                app.endBackgroundTask(box.id)
                box.id = .invalid
            }
            app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                app.mainQueue.async {
                    guard box.id != .invalid else { return }
                    work.finish()
                    app.endBackgroundTask(box.id)
                    box.id = .invalid
                }
            }
        }
    }
}
