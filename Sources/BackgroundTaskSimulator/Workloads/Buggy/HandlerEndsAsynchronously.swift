import BackgroundTaskKit

/// P3: the expiration handler dispatches the end to the main queue instead of ending the task
/// inside the handler (Backgroundable's `BackgroundQueue`; Apple forum thread 729335). UIKit
/// checks right after the handlers return (A3.6), so this is a violation even when the late end
/// arrives before the kill.
///
/// Expected: `expiry-ends-task`.
final class AsyncEndingBackgroundQueue: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    private var observation: LifecycleObservation?
    private var taskID = BackgroundTaskIdentifier.invalid

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = app.addLifecycleObserver { [self] event in
            guard event == .didEnterBackground, taskID == .invalid else { return }
            let work = context.startWork("sync")
            taskID = app.beginBackgroundTask(withName: "BackgroundQueue") { [self] in
                work.cancel()
                app.mainQueue.async { [self] in  // the bug: the end comes later
                    endTask(app)
                }
            }
            app.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [self] in
                app.mainQueue.async { [self] in
                    work.finish()
                    endTask(app)
                }
            }
        }
    }

    private func endTask(_ app: SimulatedApplication) {
        guard taskID != .invalid else { return }
        app.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
