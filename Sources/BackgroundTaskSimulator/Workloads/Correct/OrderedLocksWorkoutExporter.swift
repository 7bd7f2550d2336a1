import BackgroundTaskKit
import DeterministicSimulation

/// The workout export of ``LockOrderInversionWorkoutExporter`` done right: no thread ever holds
/// both locks. The exporter takes the next workout under `store`, uploads it holding no lock, then
/// records it under `store` and the progress under `session`, one after the other; the expiration
/// handler takes only `session` (cancel, end the task: A3.2) and the exporter saves the workouts
/// left for the next launch on its way out.
///
/// ```swift
/// let next = store.withLock { pending > 0 }          // exporter: one lock at a time
/// upload(workout)                                     // no lock held
/// session.withLock { cancelled = true; end(task) }   // expiration handler: session only
/// ```
///
/// Contract: the handler waits at most for a few bookkeeping statements of the exporter, never for
/// an upload, so it returns at once (A3.5) and no wait-for cycle can form.
///
/// Expected: passes every invariant.
final class OrderedLocksWorkoutExporter: Workload, @unchecked Sendable {
    // @unchecked: `pending` and `savedForNextLaunch` are only touched holding `store`, the
    // session's fields holding `session` (simulated locks).
    private var pending = 0
    private var savedForNextLaunch = 0
    private var exported = 0
    private var cancelled = false
    private var backgroundTask = BackgroundTaskIdentifier.invalid
    private var exporting = false
    private var store: SimulatedLock?
    private var session: SimulatedLock?
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let store = context.makeLock("workout store")
        let session = context.makeLock("export session")
        self.store = store
        self.session = session
        store.withLock { pending = context.drawInt(in: 0...8) }  // left from the last launch
        observation = context.application.addLifecycleObserver { [self] event in
            switch event {
            case .didBecomeActive: store.withLock { pending += context.drawInt(in: 0...4) }  // synced from the watch
            case .didEnterBackground: startExport(context, store, session)
            default: break
            }
        }
    }

    private func startExport(_ context: WorkloadContext, _ store: SimulatedLock, _ session: SimulatedLock) {
        let app = context.application
        let starts = session.withLock {
            defer { exporting = true }
            return !exporting
        }
        guard starts else { return }
        let work = context.startWork("export-workouts")
        let id = app.beginBackgroundTask(withName: "export-workouts") { [self] in
            work.cancel()
            session.withLock {
                cancelled = true
                endTask(app)
            }
        }
        session.withLock {
            cancelled = false
            exported = 0
            backgroundTask = id
        }
        app.backgroundQueue.async { [self] in
            while store.withLock({ pending > 0 }), !session.withLock({ cancelled }) {
                app.performBlockingWork(for: context.drawDuration(in: .seconds(1) ... .seconds(6)))  // upload one
                store.withLock { pending -= 1 }
                session.withLock { exported += 1 }
            }
            work.finish()
            store.withLock { savedForNextLaunch = pending }
            session.withLock {
                endTask(app)
                exporting = false
            }
        }
    }

    /// Under `session`.
    private func endTask(_ app: SimulatedApplication) {
        guard backgroundTask != .invalid else { return }
        app.endBackgroundTask(backgroundTask)
        backgroundTask = .invalid
    }
}
