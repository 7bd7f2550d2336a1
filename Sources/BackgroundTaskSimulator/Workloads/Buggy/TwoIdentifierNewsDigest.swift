import BackgroundTaskKit
import Foundation

/// A news app that refreshes its headlines and the weather with a refresh identifier each, and
/// reschedules each from its own launch handler with `try?`, as two features written by two
/// people would. An app may have one refresh request pending (C2.2): while the headlines'
/// request is pending, the weather's submit fails with `tooManyPendingTaskRequests`, `try?`
/// drops the error, and the weather is never refreshed in the background.
///
/// Expected: `refresh-stays-scheduled` (the message names the swallowed error).
final class TwoIdentifierNewsDigest: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the workload keeps no shared state.
    static let headlines = "com.example.news.headlines"
    static let weather = "com.example.news.weather"

    func didFinishLaunching(_ context: WorkloadContext) {
        let scheduler = context.taskScheduler
        for (identifier, feature) in [(Self.headlines, "fetch-headlines"), (Self.weather, "fetch-weather")] {
            _ = scheduler.register(forTaskWithIdentifier: identifier, using: nil) { task in
                Self.schedule(identifier, scheduler)  // the next refresh first, on every path
                let work = context.startWork(feature)
                task.expirationHandler = {
                    work.cancel()
                    task.setTaskCompleted(success: false)
                }
                context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                    guard !work.isDone else { return }
                    work.finish()
                    task.setTaskCompleted(success: true)
                }
            }
        }
        Self.schedule(Self.headlines, scheduler)
        Self.schedule(Self.weather, scheduler)  // the bug: fails while headlines is pending
    }

    static func schedule(_ identifier: String, _ scheduler: SimulatedTaskScheduler) {
        let request = TaskRequest(identifier: identifier, kind: .appRefresh,
                                  earliestBeginDate: scheduler.now.addingTimeInterval(15 * 60))
        try? scheduler.submit(request)
    }
}
