import BackgroundTaskKit

/// The upload loop of the photo-sync workloads: uploads photos one by one until the backlog is
/// done, the work is cancelled, or no more than 5 s of background time remain (time to save the
/// sync cursor before the deadline).
///
/// ```swift
/// app.backgroundQueue.async {
///     PhotoUploadLoop.upload(backlog, context: context, work: work)
///     finishSync()
/// }
/// ```
///
/// Contract: runs on the calling (background) thread, blocking it 0.3 to 3 s per photo; finishes
/// `work` when the backlog is done and cancels it when it stops early (for lack of time, or
/// because an expiration handler cancelled it), so the declared work is over when it returns.
enum PhotoUploadLoop {
    static func upload(_ backlog: Int, context: WorkloadContext, work: WorkItem) {
        let app = context.application
        var left = backlog
        while left > 0, !work.isDone, app.backgroundTimeRemaining > 5 {
            app.performBlockingWork(for: context.drawDuration(in: .milliseconds(300) ... .seconds(3)))
            left -= 1
        }
        if left == 0 { work.finish() } else { work.cancel() }
    }
}
