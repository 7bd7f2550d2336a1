import BackgroundTaskKit

/// The photo-library sync of ``UnguardedTaskIDPhotoSync`` done right by hand: the task id is
/// checked, ended and cleared in one critical section, under a lock that the expiration handler
/// (main thread) and the upload worker (global queue) both take. The worker saves its cursor
/// first and then ends the task only if it is still held; the handler, taking the same lock,
/// either ends the task itself or waits for the worker's end to finish, so the task has ended
/// when the handler returns (A3.2) and is never ended twice (A5.2).
///
/// ```swift
/// taskLock.withLock {
///     guard backgroundTask != .invalid else { return }
///     app.endBackgroundTask(backgroundTask)
///     backgroundTask = .invalid
/// }
/// ```
///
/// A second background entry while the worker still runs (after an expiry ended its task) starts
/// no second sync: `syncing` stays set until the worker is done with the property.
///
/// Expected: passes every invariant.
final class LockedTaskIDPhotoSync: Workload, @unchecked Sendable {
    // @unchecked: `backgroundTask` and `syncing` are only touched holding `taskLock` (the host's
    // lock: a `Mutex` on a device, a simulated lock here).
    private var backgroundTask = BackgroundTaskIdentifier.invalid
    private var syncing = false
    private var taskLock: (any HostLock)?
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let taskLock = context.host.makeLock(name: "photo-sync task")
        self.taskLock = taskLock
        observation = context.onDidEnterBackground { [self] in startSync(context, taskLock) }
    }

    private func startSync(_ context: WorkloadContext, _ taskLock: any HostLock) {
        let app = context.application
        let starts = taskLock.withLock {
            defer { syncing = true }
            return !syncing
        }
        guard starts else { return }
        let work = context.startWork("photo-sync")
        // Begun on main, where the handler also runs: it cannot run before the id is stored.
        let id = app.beginBackgroundTask(withName: "photo-sync") { [self] in
            work.cancel()
            endTaskIfHeld(app, taskLock)
        }
        guard id != .invalid else {
            // Refused (A2.1): no sync without a task; the next background entry tries again.
            work.cancel()
            taskLock.withLock { syncing = false }
            return
        }
        taskLock.withLock { backgroundTask = id }
        let backlog = context.drawInt(in: 10...120)
        app.backgroundQueue.async { [self] in
            PhotoUploadLoop.upload(backlog, context: context, work: work)
            app.performBlockingWork(for: .seconds(1))  // save the sync cursor
            endTaskIfHeld(app, taskLock)
            taskLock.withLock { syncing = false }
        }
    }

    /// Ends the task unless someone already did: check, end and clear in one critical section.
    private func endTaskIfHeld(_ app: SimulatedApplication, _ taskLock: any HostLock) {
        taskLock.withLock {
            guard backgroundTask != .invalid else { return }
            app.endBackgroundTask(backgroundTask)
            backgroundTask = .invalid
        }
    }
}
