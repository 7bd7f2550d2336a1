import BackgroundTaskKit

/// The download manager that keeps going in the background (the 2010 "easy background tasks"
/// post) done right: every download is declared to an ``InFlightWorkTracker``, which holds one
/// task while downloads are in flight in the background, however often the app goes back and
/// forth. On expiry the downloads are cancelled.
///
/// Expected: passes every invariant.
final class TrackedDownloader: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?
    private var tracker: InFlightWorkTracker?
    private var downloads: [(work: WorkItem, tracked: InFlightWork)] = []

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        tracker = InFlightWorkTracker(name: "downloads", host: app) { [self] in cancelAll() }
        observation = app.addLifecycleObserver { [self] event in
            if event == .didBecomeActive { startDownload(context) }
        }
    }

    private func startDownload(_ context: WorkloadContext) {
        guard let tracker else { return }
        let work = context.startWork("download")
        let tracked = tracker.beginWork(name: "download")
        downloads.append((work, tracked))
        context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
            context.application.mainQueue.async {
                if !work.isDone { work.finish() }
                tracked.finish()
            }
        }
    }

    /// Time ran out: the session cancels its downloads.
    private func cancelAll() {
        for download in downloads {
            download.work.cancel()
            download.tracked.finish()
        }
        downloads.removeAll()
    }
}
