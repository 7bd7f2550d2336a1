import BackgroundTaskKit

/// The news reader of ``MainContextFeedReader`` done right: the merges and saves run on a private
/// serial queue (a background context's queue), one job per feed, and the main queue gets only a
/// short job to refresh the visible list, so the main thread stays free for the expiration handler (A3.1).
/// A ``BackgroundTaskToken`` holds the task: the handler cancels the refresh, the token ends the
/// task inside the system's handler, and the save's later `invalidate()` does nothing.
///
/// ```swift
/// for feed in feeds { saveQueue.async { merge(feed); save() } }   // off the main thread
/// saveQueue.async {
///     app.mainQueue.async { reloadVisibleFeeds() }
///     task.invalidate()
/// }
/// ```
///
/// Expected: passes every invariant.
final class BackgroundContextFeedReader: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?
    private var saveQueue: (any WorkQueue)?

    func didFinishLaunching(_ context: WorkloadContext) {
        let saveQueue = context.application.makeSerialQueue(label: "feeds-context")
        self.saveQueue = saveQueue
        observation = context.onDidEnterBackground { Self.refresh(context, saveQueue) }
    }

    static func refresh(_ context: WorkloadContext, _ saveQueue: any WorkQueue) {
        let app = context.application
        let work = context.startWork("refresh-feeds")
        let task = BackgroundTaskToken(name: "refresh-feeds", host: app) { work.cancel() }
        let feeds = context.drawInt(in: 5...60)
        app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {  // the downloads
            for _ in 0..<feeds {
                saveQueue.async {
                    guard !work.isDone else { return }  // expired meanwhile
                    app.performBlockingWork(for: .milliseconds(200))  // merge and save one feed, off main
                }
            }
            saveQueue.async {
                if !work.isDone { work.finish() }
                app.mainQueue.async { app.performBlockingWork(for: .milliseconds(5)) }  // reload the list
                task.invalidate()
            }
        }
    }
}
