import BackgroundTaskKit

/// The background backup with its task id in an optional property, as many apps write it: the
/// expiration handler ends the task and clears the id, and the backup's completion ends it with
/// `endBackgroundTask(taskID!)`. When the backup outlasts the background time (the system calls
/// the handler first), the completion runs later, when the app is resumed, and force-unwraps
/// nil: the app crashes (a Swift trap, SIGILL on Linux).
///
/// Expected: `no-crash`, found by isolated runs (`bgsim check`, `bgsim fuzz --isolate`); in
/// process the crash ends bgsim with exit 70 and the banner naming the run. The correct
/// counterpart is `backup/correct` (``NetworkCheckedBackup``: one `done` that ends the task at
/// most once, on every path).
final class ForceUnwrappedTaskIDBackup: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground {
            let backup = BackupTask()  // one per background entry
            let work = context.startWork("backup")
            backup.taskID = app.beginBackgroundTask(withName: "backup") {
                work.cancel()
                if let id = backup.taskID { app.endBackgroundTask(id) }
                backup.taskID = nil  // the handler cleans up after itself
            }
            app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                if !work.isDone { work.finish() }
                app.endBackgroundTask(backup.taskID!)  // the bug: nil once the handler ran
                backup.taskID = nil
            }
        }
    }
}

/// One backup's stored task id.
private final class BackupTask: @unchecked Sendable {
    // @unchecked: touched by the main thread (begin, expiry) and the backup's completion, never
    // at once (one simulated thread runs at a time).
    var taskID: BackgroundTaskIdentifier?
}
