import BackgroundTaskKit

/// The token pattern (CFABackgroundTask) done right: each save on leaving the foreground holds
/// its own ``BackgroundTaskToken`` token; the expiration handler stops the save and the token ends the
/// task inside the system's handler; completion invalidates the token (idempotent, so a save that
/// finishes after an expiry does not end anything twice). Quick back-and-forth gives overlapping
/// saves, each with its own token.
///
/// Expected: passes every invariant.
final class DraftSaver: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { Self.save(context) }
    }

    static func save(_ context: WorkloadContext) {
        let app = context.application
        let work = context.startWork("save-draft")
        let task = BackgroundTaskToken(name: "save-draft", host: app) { work.cancel() }
        app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
            app.mainQueue.async {
                if !work.isDone { work.finish() }
                task.invalidate()
            }
        }
    }
}
