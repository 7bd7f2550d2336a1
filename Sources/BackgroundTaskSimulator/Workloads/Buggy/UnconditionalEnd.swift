import BackgroundTaskKit

/// P4: the 2014 background-backup blog pattern: `endBackgroundTask()` ends the stored id and
/// sets it to `.invalid`; the expiration handler calls it, and so does the backup's completion,
/// unconditionally, after the handler already ended the task (SDWebImage #1362,
/// firebase-ios-sdk #3625). The second call ends `.invalid` (A5.2, A5.3).
///
/// Expected: `no-double-end`.
final class UnconditionalEndBackup: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground {
            let box = IdentifierBox()
            let endBackgroundTask: @Sendable () -> Void = {
                app.endBackgroundTask(box.id)
                box.id = .invalid
            }
            let work = context.startWork("backup")
            box.id = app.beginBackgroundTask(withName: "backup") {
                work.cancel()
                endBackgroundTask()
            }
            app.backgroundQueue.async {
                guard context.isNetworkAvailable else {  // the blog's network check
                    work.cancel()
                    endBackgroundTask()
                    return
                }
                app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                    work.finish()
                    endBackgroundTask()  // the bug: unconditional, even after expiry ended it
                }
            }
        }
    }
}
