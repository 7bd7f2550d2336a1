import BackgroundTaskKit

/// The backup that starts on entering the background (the 2014 blog post) done right, with its
/// network check: ``BackgroundTaskToken/runUntilDone(name:host:onExpiration:_:)`` gives one `done`
/// that every exit calls (no network, finished, expired) and that ends the task at most once.
///
/// Expected: passes every invariant.
final class NetworkCheckedBackup: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground {
            let work = context.startWork("backup")
            BackgroundTaskToken.runUntilDone(name: "backup", host: app, onExpiration: { work.cancel() }) { done in
                app.backgroundQueue.async {
                    guard context.isNetworkAvailable else {
                        work.cancel()
                        return done()
                    }
                    app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                        if !work.isDone { work.finish() }
                        done()  // after an expiry this does nothing
                    }
                }
            }
        }
    }
}
