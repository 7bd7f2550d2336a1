import BackgroundTaskKit

/// P1: "Easy background tasks in iOS 4": the download class begins a task on every
/// `didEnterBackground` and keeps its id in one property. A second background entry before the
/// downloads finish overwrites the first id, so the first task is never ended and the watchdog
/// kills the app at the deadline (A7.1).
///
/// Expected: `every-begin-ended` (and the 0x8badf00d kill).
final class OverwrittenTaskIDDownloader: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var bgTask = BackgroundTaskIdentifier.invalid
    private var downloadsInFlight = 0
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = app.addLifecycleObserver { [self] event in
            switch event {
            case .didBecomeActive: startDownload(context)
            case .didEnterBackground:
                // The bug: a new task on every entry, stored over the old id.
                bgTask = app.beginBackgroundTask(withName: "downloads") { [self] in
                    if bgTask != .invalid {
                        app.endBackgroundTask(bgTask)
                        bgTask = .invalid
                    }
                }
            default: break
            }
        }
    }

    private func startDownload(_ context: WorkloadContext) {
        let app = context.application
        downloadsInFlight += 1
        let work = context.startWork("download")
        app.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [self] in
            app.mainQueue.async { [self] in
                work.finish()
                downloadsInFlight -= 1
                if downloadsInFlight == 0, bgTask != .invalid {
                    app.endBackgroundTask(bgTask)
                    bgTask = .invalid
                }
            }
        }
    }
}
