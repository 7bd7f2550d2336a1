import BackgroundTaskKit
import Foundation

/// A reading list synced by a repeating refresh (``BackgroundTaskScheduler``: each launch of the
/// task resubmits first, C3.6). It submits the request on every launch of the app too, so the
/// schedule comes back after anything that dropped it: an App Store update removes pending
/// requests (C3.7), and the first launch after it submits anew.
///
/// Expected: passes every invariant, also across app updates.
final class ReadingListSync: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time.
    static let refresh = "com.example.readinglist.sync"

    func didFinishLaunching(_ context: WorkloadContext) {
        guard let scheduler = Self.register(context) else { return }
        Self.schedule(scheduler, context)  // every launch: a pending request may be gone (C3.7)
    }

    /// Registers the repeating sync; nil without BGTaskScheduler.
    static func register(_ context: WorkloadContext) -> BackgroundTaskScheduler? {
        let scheduler = BackgroundTaskScheduler(scheduler: context.taskScheduler, lifecycle: context.application)
        do throws(TaskRegistrationError) {
            try scheduler.registerRepeatingRefresh(refresh, every: .zero) { task in
                let download = context.startWork("sync-reading-list")
                task.onExpiration { download.cancel() }
                context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                    guard !download.isDone else { return }
                    download.finish()
                    task.complete(success: true)
                }
            }
        } catch {
            return nil
        }
        return scheduler
    }

    static func schedule(_ scheduler: BackgroundTaskScheduler, _ context: WorkloadContext) {
        do throws(TaskSubmissionError) {
            try scheduler.submitRepeatingRefresh(refresh)
        } catch {
            context.probe("reading-list-submit-failed")  // Background App Refresh off: the user's choice
        }
    }
}
