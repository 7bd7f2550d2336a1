import BackgroundTaskKit
import Foundation

/// The price alerts "saving battery": the launch handler resubmits first, as it should, but a
/// check that finishes while Low Power Mode is on cancels that next request, meaning to resume
/// "when Low Power Mode ends"; only the next cold launch schedules again. Nothing resumes it
/// sooner: iOS already holds refresh back in Low Power Mode (the pause was never needed), and
/// the app gets no callback when Low Power Mode ends.
///
/// Expected: `refresh-stays-scheduled` (a check completes having withdrawn its next request).
final class PriceAlertsPausedInLowPowerMode: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time.
    func didFinishLaunching(_ context: WorkloadContext) {
        let scheduler = context.taskScheduler
        _ = scheduler.register(forTaskWithIdentifier: PriceAlerts.refresh, using: nil) { task in
            Self.schedule(scheduler)
            let fetch = context.startWork("fetch-quotes")
            let finish: @Sendable (Bool) -> Void = { success in
                if context.isLowPowerModeEnabled {  // the bug: "pause" refresh in Low Power Mode
                    context.probe("alerts-paused-in-low-power-mode")
                    scheduler.cancel(taskRequestWithIdentifier: PriceAlerts.refresh)
                }
                task.setTaskCompleted(success: success)
            }
            task.expirationHandler = {
                fetch.cancel()
                finish(false)
            }
            // Quotes for every alert: 5 to 20 s on a cellular connection.
            context.application.backgroundQueue.asyncAfter(context.drawDuration(in: .seconds(5)...(.seconds(20)))) {
                guard !fetch.isDone else { return }
                fetch.finish()
                finish(true)
            }
        }
        Self.schedule(scheduler)
    }

    static func schedule(_ scheduler: SimulatedTaskScheduler) {
        try? scheduler.submit(TaskRequest(identifier: PriceAlerts.refresh, kind: .appRefresh))
    }
}
