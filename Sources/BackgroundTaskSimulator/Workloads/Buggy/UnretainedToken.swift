import BackgroundTaskKit

/// P5: the task token is not retained (the CFABackgroundTask README warns of it): the save
/// creates the token and lets it go at once, so the task ends before the work even starts and
/// the work runs in the background with nothing holding the app awake; on a device the app is
/// suspended under it (B2.3).
///
/// Expected: `background-work-held`.
final class UnretainedTokenDraftSaver: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground {
            let work = context.startWork("save-draft")
            _ = BackgroundTaskToken(name: "save-draft", host: app) { work.cancel() }  // the bug: released at once
            app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                app.mainQueue.async {
                    if !work.isDone { work.finish() }
                }
            }
        }
    }
}
