import BackgroundTaskKit
import DeterministicSimulation

/// A fitness app exports the workouts recorded today to a health service when the user leaves.
/// Two locks: `store` guards the local workout store, `session` the export session (its task id,
/// progress, cancellation). The exporter writes each workout holding the store lock and, inside
/// it, records the progress under the session lock (store, then session). The expiration handler
/// takes the session lock to cancel the export and end the task and, inside it, the store lock to
/// mark the workouts left for the next launch (session, then store).
///
/// ```swift
/// store.withLock { upload(workout); session.withLock { exported += 1 } }   // exporter
/// session.withLock { store.withLock { markPending() }; end(task) }         // expiration handler
/// ```
///
/// The race: a lock-order inversion. When the expiry callout comes while the exporter is inside
/// `store` (uploading a workout), the handler takes `session` and waits for `store`; the exporter
/// finishes the upload and waits for `session`: both threads wait forever, and the main thread
/// with them (the watchdog would kill the app, A3.5, A10.4). With one thread the locks are never
/// contended and the run passes (`concurrency` off).
///
/// Expected: `no-deadlock`.
final class LockOrderInversionWorkoutExporter: Workload, @unchecked Sendable {
    // @unchecked: `pending` and `savedForNextLaunch` are only touched holding `store`, the session's fields holding `session`
    // (simulated locks).
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
                store.withLock { savedForNextLaunch = pending }  // the bug: session, then store
                endTask(app)
            }
        }
        session.withLock {
            cancelled = false
            exported = 0
            backgroundTask = id
        }
        app.backgroundQueue.async { [self] in
            var more = true
            while more {
                more = store.withLock {
                    guard pending > 0 else { return false }
                    app.performBlockingWork(for: context.drawDuration(in: .seconds(1) ... .seconds(6)))  // upload one
                    pending -= 1
                    return session.withLock {  // store, then session
                        exported += 1
                        return !cancelled
                    }
                }
            }
            work.finish()
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
