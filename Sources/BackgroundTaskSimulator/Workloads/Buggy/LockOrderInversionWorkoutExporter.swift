import BackgroundTaskKit
import DeterministicSimulation

/// A fitness app exports the workouts recorded today to a health service when the user leaves
/// (``WorkoutExport``). Two locks: `store` guards the local workout store, `session` the export
/// session (its task id, progress, cancellation). The exporter uploads each workout holding the
/// store lock and, inside it, records the progress under the session lock (store, then session).
/// The expiration handler takes the session lock to cancel the export and end the task and,
/// inside it, the store lock to save the workouts left for the next launch (session, then store).
///
/// ```swift
/// store.withLock { upload(workout); session.withLock { exported += 1 } }   // exporter
/// session.withLock { store.withLock { saveLeftovers() }; end(task) }       // expiration handler
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
    // @unchecked: one simulated thread runs at a time; the export guards its own state.
    private var export: WorkoutExport?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        export = WorkoutExport(context, export: { export, _ in
            var more = true
            while more {
                more = export.store.withLock {
                    guard export.pending > 0 else { return false }
                    app.performBlockingWork(for: context.drawDuration(in: .seconds(1) ... .seconds(6)))  // upload one
                    export.pending -= 1
                    return export.session.withLock {  // store, then session
                        export.exported += 1
                        return !export.cancelled
                    }
                }
            }
        }, onExpiration: { export in
            export.session.withLock {
                export.cancelled = true
                export.store.withLock { export.savedForNextLaunch = export.pending }  // the bug: session, then store
                export.endTask(app)
            }
        })
    }
}
