import BackgroundTaskKit
import DeterministicSimulation

/// What the workout-export workloads share: the workouts waiting to be exported (left from the
/// last launch, more synced from the watch on every activation) under the `store` lock, and an
/// export session (progress, cancellation, its background task) under the `session` lock. On
/// every background entry without an export running, a new export begins a task on main and runs
/// `export` on the global queue; the task's expiration handler cancels the work and calls
/// `onExpiration`.
///
/// ```swift
/// export = WorkoutExport(context, export: { export, work in
///     while export.store.withLock({ export.pending > 0 }) { upload() }
/// }, onExpiration: { export in
///     export.session.withLock { export.cancelled = true; export.endTask(app) }
/// })
/// ```
///
/// Contract: `pending` and `savedForNextLaunch` are touched holding ``store``; `exported`,
/// `cancelled` and ``endTask(_:)`` holding ``session``. When `export` returns the work is
/// finished (if not cancelled) and the task ended under ``session``.
final class WorkoutExport: @unchecked Sendable {
    // @unchecked: every field is touched holding the lock its contract names (simulated locks).
    let store: SimulatedLock
    let session: SimulatedLock
    var pending = 0
    var savedForNextLaunch = 0
    var exported = 0
    var cancelled = false
    private var backgroundTask = BackgroundTaskIdentifier.invalid
    private var exporting = false
    private var observation: LifecycleObservation?

    init(
        _ context: WorkloadContext, export: @escaping @Sendable (WorkoutExport, WorkItem) -> Void,
        onExpiration: @escaping @Sendable (WorkoutExport) -> Void
    ) {
        store = context.makeLock("workout store")
        session = context.makeLock("export session")
        store.withLock { pending = context.drawInt(in: 0...8) }  // left from the last launch
        observation = context.application.addLifecycleObserver { [self] event in
            switch event {
            case .didBecomeActive: store.withLock { pending += context.drawInt(in: 0...4) }  // synced from the watch
            case .didEnterBackground: start(context, export, onExpiration)
            default: break
            }
        }
    }

    private func start(
        _ context: WorkloadContext, _ export: @escaping @Sendable (WorkoutExport, WorkItem) -> Void,
        _ onExpiration: @escaping @Sendable (WorkoutExport) -> Void
    ) {
        let app = context.application
        let starts = session.withLock {
            defer { exporting = true }
            return !exporting
        }
        guard starts else { return }
        let work = context.startWork("export-workouts")
        let id = app.beginBackgroundTask(withName: "export-workouts") { [self] in
            work.cancel()
            onExpiration(self)
        }
        guard id != .invalid else {
            // Refused (A2.1): no export without a task; the next background entry tries again.
            work.cancel()
            session.withLock { exporting = false }
            return
        }
        session.withLock {
            cancelled = false
            exported = 0
            backgroundTask = id
        }
        app.backgroundQueue.async { [self] in
            export(self, work)
            work.finish()
            session.withLock {
                endTask(app)
                exporting = false
            }
        }
    }

    /// Ends the export's task if it is still held; call holding ``session``.
    func endTask(_ app: SimulatedApplication) {
        guard backgroundTask != .invalid else { return }
        app.endBackgroundTask(backgroundTask)
        backgroundTask = .invalid
    }
}
