import BackgroundTaskKit
import Foundation

/// A news reader prefetches articles in the background: each BGAppRefreshTask launch fetches one
/// batch (a minute or more apart). When four refreshes came in a row with the user never
/// opening the app, the reader is in catch-up mode: it also downloads the day's digest, under a
/// UIKit background task begun in the refresh handler for the extra time (the digest is large),
/// and completes the refresh at once. Opening the app ends catch-up mode, as does a new process.
///
/// ```swift
/// let reader = ReaderPrefetch()                                   // the correct variant
/// let planted = ReaderPrefetchLostDigestKeepsTask.make()          // the deep planted bug
/// ```
///
/// Contract: every UIKit task is ended exactly once (the download finishing or failing, or its
/// expiration handler), every refresh completed exactly once. Expected: passes every
/// invariant. The planted variant returns on a lost connection without ending the digest's
/// UIKit task: reached only after four refresh launches in a row without an open (each a
/// minute or more after the last) and a network drop during the digest download.
final class ReaderPrefetch: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; everything here is touched on main only.
    static let refresh = "com.example.reader.refresh"
    /// Refreshes in a row without an open that start catch-up mode.
    static let catchUpAfter = 4
    private var observation: LifecycleObservation?
    private var unreadRefreshes = 0
    /// The digest download's UIKit task (`.invalid`: none held).
    private var digestTask = BackgroundTaskIdentifier.invalid
    /// Whether a lost connection leaves the digest's task held (the planted bug).
    let lostDigestKeepsTask: Bool

    init(lostDigestKeepsTask: Bool = false) {
        self.lostDigestKeepsTask = lostDigestKeepsTask
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let scheduler = context.taskScheduler
        _ = scheduler.register(forTaskWithIdentifier: Self.refresh, using: app.mainQueue) { [unowned self] task in
            prefetch(task, context)
        }
        submitRefresh(scheduler)
        observation = app.addLifecycleObserver { [unowned self] event in
            if event == .willEnterForeground { unreadRefreshes = 0 }  // the user is reading again
        }
    }

    private func submitRefresh(_ scheduler: any TaskSchedulerHost) {
        try? scheduler.submit(TaskRequest(identifier: Self.refresh, kind: .appRefresh,
                                          earliestBeginDate: scheduler.now.addingTimeInterval(60)))
    }

    /// One refresh: a batch of articles, then (in catch-up mode) the digest, then completion.
    private func prefetch(_ task: any ScheduledTask, _ context: WorkloadContext) {
        submitRefresh(context.taskScheduler)  // keep the chain going
        let work = context.startWork("prefetch-articles")
        task.expirationHandler = {
            work.cancel()
            task.setTaskCompleted(success: false)
        }
        context.network.request("prefetch-articles", for: work, timeout: .seconds(20)) { [unowned self] result in
            guard !work.isDone else { return }  // expired meanwhile
            guard case .success = result else {
                work.cancel()
                return task.setTaskCompleted(success: false)
            }
            work.finish()
            unreadRefreshes += 1
            if unreadRefreshes >= Self.catchUpAfter {
                unreadRefreshes = 0
                context.probe("reader-prefetch-catch-up")
                downloadDigest(context)
            }
            task.setTaskCompleted(success: true)
        }
    }

    /// Downloads the digest under a UIKit background task of its own.
    private func downloadDigest(_ context: WorkloadContext) {
        let app = context.application
        guard digestTask == .invalid else { return }  // a digest is already downloading
        let work = context.startWork("download-digest")
        digestTask = app.beginBackgroundTask(withName: "download-digest") { [unowned self] in
            work.cancel()
            endDigestTask(app)
        }
        guard digestTask != .invalid else { return work.cancel() }  // refused (A2.1): next time
        context.network.request("download-digest", for: work, timeout: .seconds(60)) { [unowned self] result in
            guard !work.isDone else { return }  // expired: the handler ended the task
            switch result {
            case .success: work.finish()
            case .failure(.networkConnectionLost):
                context.probe("reader-prefetch-digest-lost")
                work.cancel()
                if lostDigestKeepsTask { return }  // the bug: "it will be retried", the task stays held
            case .failure: work.cancel()
            }
            endDigestTask(app)
        }
    }

    private func endDigestTask(_ app: SimulatedApplication) {
        guard digestTask != .invalid else { return }
        app.endBackgroundTask(digestTask)
        digestTask = .invalid
    }
}
