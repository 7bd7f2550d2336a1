import BackgroundTaskKit

/// P2: the expiration handler only cancels the work (or only logs) and does not end the task
/// (mixpanel-iphone PR #3, urbanairship PR #61). When the work outlives the budget the task is
/// still open after the handlers return (A3.6) and the watchdog kills the app (A7.1).
///
/// Expected: `expiry-ends-task`.
final class HandlerDoesNotEndUploader: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground {
            let work = context.startWork("flush-events")
            var taskID = BackgroundTaskIdentifier.invalid
            let box = IdentifierBox()
            taskID = app.beginBackgroundTask(withName: "flush-events") {
                work.cancel()  // the bug: cancels the work, never ends the task
            }
            box.id = taskID
            app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                app.mainQueue.async {
                    guard !work.isDone else { return }
                    work.finish()
                    app.endBackgroundTask(box.id)
                }
            }
        }
    }
}

/// A mutable identifier shared between closures of one run.
final class IdentifierBox: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    var id = BackgroundTaskIdentifier.invalid
}
