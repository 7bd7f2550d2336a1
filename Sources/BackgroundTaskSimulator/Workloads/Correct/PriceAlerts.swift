import BackgroundTaskKit
import Foundation

/// A stock app's price alerts, checked by a repeating refresh (``BackgroundTaskScheduler``: each
/// launch resubmits first, C3.6). It leaves Low Power Mode to iOS: the request stays submitted,
/// iOS holds the launch back while Low Power Mode is on and runs it once it is off. Expiry cancels
/// the fetch; the task is completed once.
///
/// Expected: passes every invariant, also while the user toggles Low Power Mode.
final class PriceAlerts: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time.
    static let refresh = "com.example.stocks.alerts"

    func didFinishLaunching(_ context: WorkloadContext) {
        let scheduler = BackgroundTaskScheduler(scheduler: context.taskScheduler, lifecycle: context.application)
        do throws(TaskRegistrationError) {
            try scheduler.registerRepeatingRefresh(Self.refresh, every: .zero) { task in
                let fetch = context.startWork("fetch-quotes")
                task.onExpiration { fetch.cancel() }
                // Quotes for every alert: 5 to 20 s on a cellular connection.
                context.application.backgroundQueue.asyncAfter(context.drawDuration(in: .seconds(5)...(.seconds(20)))) {
                    guard !fetch.isDone else { return }
                    fetch.finish()
                    task.complete(success: true)
                }
            }
        } catch {
            return  // no BGTaskScheduler: alerts in the foreground only
        }
        do throws(TaskSubmissionError) {
            try scheduler.submitRepeatingRefresh(Self.refresh)
        } catch {
            context.probe("price-alerts-submit-failed")  // Background App Refresh off: the user's choice
        }
    }
}
