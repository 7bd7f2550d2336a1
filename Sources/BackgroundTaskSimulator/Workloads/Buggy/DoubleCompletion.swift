import BackgroundTaskKit

/// P7: the TestBGScheduler sample completes its BGTask in the last operation's completion and
/// again after the queue drains, and on expiry only cancels the operations, so the expiration
/// path never completes the task (home-assistant PR #5039).
///
/// Expected: `bgtask-completed-once`.
final class DoubleCompletionApp: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    static let processing = "com.example.bgapp.processing"
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let scheduler = context.taskScheduler
        let app = context.application
        _ = scheduler.register(forTaskWithIdentifier: Self.processing, using: nil) { task in
            let work = context.startWork("operations")
            task.expirationHandler = { work.cancel() }  // the bug: never completes here
            app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                guard !work.isDone else { return }
                work.finish()
                task.setTaskCompleted(success: true)  // the last operation's completion
                task.setTaskCompleted(success: true)  // the bug: again after the queue drains
            }
        }
        observation = context.onDidEnterBackground {
            try? scheduler.submit(TaskRequest(identifier: Self.processing, kind: .processing(
                requiresNetworkConnectivity: false, requiresExternalPower: false)))
        }
    }
}
