import BackgroundTaskKit

/// A photo-library sync that keeps uploading when the user leaves the app: the upload loop runs on
/// the global queue, uploads photo after photo while more than 5 s of background time remain, then
/// saves its sync cursor and ends the task. The task id is one property, ended by a helper that both
/// the upload worker and the expiration handler call; the worker checks that it still holds the task
/// before saving the cursor, and ends the stored id after the save.
///
/// ```swift
/// guard backgroundTask != .invalid else { return }   // worker: "still ours?"
/// saveCursor()                                       // blocks the worker for a second
/// app.endBackgroundTask(backgroundTask)              // the handler may have ended it meanwhile
/// ```
///
/// The race: the worker stops uploading when 4 to 5 s remain, so its cursor save straddles the
/// expiry callout (A3.7: handlers about 4 s before the deadline). On main, the expiration handler
/// ends the task and stores `.invalid` while the worker is blocked in the save; the worker then
/// calls `endBackgroundTask(.invalid)` (A5.2, A5.3; the check and the end are not atomic, A3.1
/// puts the handler on another thread). With one thread the worker's job runs to its end before
/// the overdue callout, so the run passes (`concurrency` off).
///
/// Expected: `no-double-end`.
final class UnguardedTaskIDPhotoSync: Workload, @unchecked Sendable {
    // @unchecked: the bug under test; simulated threads hand over one at a time, so the property
    // is never accessed by two OS threads at once, only in the wrong order.
    private var backgroundTask = BackgroundTaskIdentifier.invalid
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in startSync(context) }
    }

    private func startSync(_ context: WorkloadContext) {
        let app = context.application
        guard backgroundTask == .invalid else { return }  // a sync is already running
        let work = context.startWork("photo-sync")
        backgroundTask = app.beginBackgroundTask(withName: "photo-sync") { [self] in
            work.cancel()
            endBackgroundTask(app)
        }
        let backlog = context.drawInt(in: 10...120)
        app.backgroundQueue.async { [self] in
            PhotoUploadLoop.upload(backlog, context: context, work: work)
            finishSync(app)
        }
    }

    private func finishSync(_ app: SimulatedApplication) {
        guard backgroundTask != .invalid else { return }  // the handler already ended it
        app.performBlockingWork(for: .seconds(1))  // save the sync cursor
        app.endBackgroundTask(backgroundTask)  // the bug: the handler may have ended it during the save
        backgroundTask = .invalid
    }

    private func endBackgroundTask(_ app: SimulatedApplication) {
        if backgroundTask != .invalid {
            app.endBackgroundTask(backgroundTask)
            backgroundTask = .invalid
        }
    }
}
