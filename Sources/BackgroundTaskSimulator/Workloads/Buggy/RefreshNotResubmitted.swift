import BackgroundTaskKit
import Foundation

/// P8: Apple's sample pattern as often copied: the refresh handler schedules the next refresh
/// only when the refresh succeeds, so an expiry (or a failed fetch) ends the chain (C3.6: a
/// launch consumes the request).
///
/// Expected: `refresh-stays-scheduled`.
final class RefreshNotResubmittedApp: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    static let refresh = "com.example.bgapp.refresh"

    func didFinishLaunching(_ context: WorkloadContext) {
        let scheduler = context.taskScheduler
        let app = context.application
        _ = scheduler.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            let work = context.startWork("refresh")
            task.expirationHandler = {
                work.cancel()
                task.setTaskCompleted(success: false)  // the bug: no resubmission on this path
            }
            app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                guard !work.isDone else { return }
                work.finish()
                Self.schedule(scheduler)  // only on success
                task.setTaskCompleted(success: true)
            }
        }
        Self.schedule(scheduler)  // start the chain on every launch
    }

    static func schedule(_ scheduler: SimulatedTaskScheduler) {
        let request = TaskRequest(identifier: refresh, kind: .appRefresh,
                                  earliestBeginDate: scheduler.now.addingTimeInterval(60))
        try? scheduler.submit(request)
    }
}
