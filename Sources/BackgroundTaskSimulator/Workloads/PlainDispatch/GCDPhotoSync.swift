import BackgroundTaskKit
import Dispatch
import Foundation

/// The photo-library sync as apps wrote it before Swift concurrency, in plain GCD: the task id is
/// a property only the main thread touches; the sync runs on `DispatchQueue.global(qos:)` and
/// hops back with `DispatchQueue.main.async` to end the task; a serial `DispatchQueue` of the
/// app's own keeps the sync cursor, read with `sync` by the expiration handler. Inside a run
/// every one of those queues is a simulated queue of the process (the shim hands GCD's calls to
/// the simulator), so the code runs as written, interleaved with the run's other threads.
///
/// ```swift
/// // in applicationDidEnterBackground:
/// taskID = app.beginBackgroundTask(withName: "photo-sync") { [self] in
///     cancelled.set(); endTask()                    // main: the handler ends the task (A3.2)
/// }
/// DispatchQueue.global(qos: .utility).async {
///     uploadBacklog()
///     DispatchQueue.main.async { if taskID == id { endTask() } }
/// }
/// ```
///
/// Contract (``Ending/ifStillHeld``, the correct sync): the task it begins is ended exactly once
/// (A5.2), by the expiration handler or by the completion on main, whichever comes first; the
/// completion ends only its own task (a later background entry may have begun another); the
/// upload stops when the handler cancels it. A background entry while a sync runs starts none.
///
/// Planted (``Ending/unconditionally``, P4 in GCD): the completion hops to main and ends the id it
/// began with, whether or not the expiration handler already ended it: `no-double-end` when the
/// budget runs out during the upload ("Can't end BackgroundTask: no background task exists with
/// identifier N").
final class GCDPhotoSync: Workload, @unchecked Sendable {
    // @unchecked: `taskID`, `syncing`, `resumePoint` and `observation` are touched on the main
    // thread only; `cursor` on `cursorQueue` only; a cancel flag under its lock.

    /// How the completion ends the task.
    enum Ending: Sendable {
        /// Only if the task is still the one it began, still held.
        case ifStillHeld
        /// Always (P4).
        case unconditionally
    }

    private let ending: Ending
    private var taskID = BackgroundTaskIdentifier.invalid
    private var syncing = false
    private var observation: LifecycleObservation?
    private let cursorQueue = DispatchQueue(label: "photo-sync.cursor")  // tidy: allow GCD runs on simulated queues in a run
    private var cursor = 0
    /// The cursor the last expiration handler saved (main thread).
    private var resumePoint = 0

    init(ending: Ending) { self.ending = ending }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in startSync(context) }
    }

    private func startSync(_ context: WorkloadContext) {
        let app = context.application
        guard !syncing else { return }
        let work = context.startWork("photo-sync")
        let cancelled = CancelFlag()
        let id = app.beginBackgroundTask(withName: "photo-sync") { [self] in
            cancelled.set()
            work.cancel()
            resumePoint = cursorQueue.sync { cursor }  // where the next sync starts
            endTask(app)
        }
        guard id != .invalid else { return work.cancel() }  // refused (A2.1): the next entry tries again
        taskID = id
        syncing = true
        let backlog = context.drawInt(in: 5...60)
        DispatchQueue.global(qos: .utility).async { [self] in  // tidy: allow GCD runs on simulated queues in a run
            var uploaded = 0
            while uploaded < backlog, !cancelled.isSet {
                app.performBlockingWork(for: context.drawDuration(in: .milliseconds(300) ... .seconds(3)))
                uploaded += 1
                cursorQueue.async { [self] in cursor += 1 }
            }
            if uploaded == backlog { work.finish() } else { work.cancel() }
            DispatchQueue.main.async { [self] in  // tidy: allow GCD runs on simulated queues in a run
                syncing = false
                switch ending {
                case .ifStillHeld:
                    if taskID == id { endTask(app) }
                case .unconditionally:
                    app.endBackgroundTask(id)  // the bug: the handler may have ended it already
                    if taskID == id { taskID = .invalid }
                }
            }
        }
    }

    /// Ends the task if it is held (main thread).
    private func endTask(_ app: SimulatedApplication) {
        guard taskID != .invalid else { return }
        app.endBackgroundTask(taskID)
        taskID = .invalid
    }
}

/// A flag the expiration handler sets and the upload loop reads, under an `NSLock`.
private final class CancelFlag: @unchecked Sendable {
    // @unchecked: `value` is read and written with `lock` held.
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
