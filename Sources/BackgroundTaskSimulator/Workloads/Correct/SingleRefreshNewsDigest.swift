import BackgroundTaskKit
import Foundation

/// The news app done right: one repeating refresh (``BackgroundTaskScheduler``) fetches the
/// headlines, then the weather, so the app never asks for a second pending refresh (C2.2); a
/// submit error is kept (an app would log it), never dropped with `try?`; expiry cancels both
/// fetches and the task is completed once.
///
/// Expected: passes every invariant.
final class SingleRefreshNewsDigest: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; `submissionErrors` is touched on main only.
    static let refresh = "com.example.news.refresh"
    private(set) var submissionErrors: [TaskSubmissionError] = []

    func didFinishLaunching(_ context: WorkloadContext) {
        let scheduler = BackgroundTaskScheduler(scheduler: context.taskScheduler, lifecycle: context.application)
        do throws(TaskRegistrationError) {
            try scheduler.registerRepeatingRefresh(Self.refresh, every: .seconds(15 * 60)) { task in
                Self.refreshAll(task, context)
            }
        } catch {
            return  // no BGTaskScheduler (iOS 12): the app refreshes in the foreground only
        }
        do throws(TaskSubmissionError) {
            try scheduler.submitRepeatingRefresh(Self.refresh)
        } catch {
            submissionErrors.append(error)  // e.g. Background App Refresh off: the user's choice
        }
    }

    /// Headlines, then weather, on the background queue; one completion for the task.
    static func refreshAll(_ task: LaunchedTask, _ context: WorkloadContext) {
        let headlines = context.startWork("fetch-headlines")
        let weather = context.startWork("fetch-weather")
        task.onExpiration {
            headlines.cancel()
            weather.cancel()
        }
        let queue = context.application.backgroundQueue
        queue.asyncAfter(context.drawWorkDuration()) {
            if !headlines.isDone { headlines.finish() }
            queue.asyncAfter(context.drawWorkDuration()) {
                if !weather.isDone { weather.finish() }
                task.complete(success: true)  // ignored after an expiry completed it
            }
        }
    }
}
