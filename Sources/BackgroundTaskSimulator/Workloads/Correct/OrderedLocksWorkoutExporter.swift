import BackgroundTaskKit
import DeterministicSimulation

/// The workout export of ``LockOrderInversionWorkoutExporter`` done right: no thread ever holds
/// both locks. The exporter checks for the next workout under `store`, uploads it holding no lock,
/// then records it under `store` and the progress under `session`, one after the other; the
/// expiration handler takes only `session` (cancel, end the task: A3.2) and the exporter saves
/// the workouts left for the next launch on its way out.
///
/// ```swift
/// while store.withLock({ pending > 0 }) { upload(workout) }   // exporter: one lock at a time
/// session.withLock { cancelled = true; end(task) }            // expiration handler: session only
/// ```
///
/// Contract: the handler waits at most for a few bookkeeping statements of the exporter, never for
/// an upload, so it returns at once (A3.5) and no wait-for cycle can form.
///
/// Expected: passes every invariant.
final class OrderedLocksWorkoutExporter: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the export guards its own state.
    private var export: WorkoutExport?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        export = WorkoutExport(context, export: { export, _ in
            while export.store.withLock({ export.pending > 0 }), !export.session.withLock({ export.cancelled }) {
                app.performBlockingWork(for: context.drawDuration(in: .seconds(1) ... .seconds(6)))  // upload one
                export.store.withLock { export.pending -= 1 }
                export.session.withLock { export.exported += 1 }
            }
            export.store.withLock { export.savedForNextLaunch = export.pending }
        }, onExpiration: { export in
            export.session.withLock {
                export.cancelled = true
                export.endTask(app)
            }
        })
    }
}
