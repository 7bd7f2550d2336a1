import BackgroundTaskKit

/// A processing task that rebuilds the search index only when the catalogue changed. The "nothing
/// changed" path returns from the check without completing the task, and no expiration handler
/// is set: the system holds the launched task, idle, until its runtime is up and then marks it
/// failed (C4.5), so the app loses its background time now and standing for future launches.
///
/// Expected: `no-idle-task`.
final class UncompletedIndexRebuildApp: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the workload keeps no shared state.
    static let processing = "com.example.bgapp.processing"
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let scheduler = context.taskScheduler
        let app = context.application
        _ = scheduler.register(forTaskWithIdentifier: Self.processing, using: nil) { task in
            let check = context.startWork("check-catalogue")
            app.backgroundQueue.asyncAfter(context.drawDuration(in: .milliseconds(100) ... .seconds(2))) {
                check.finish()
                guard context.draw(probability: 0.5) else { return }  // the bug: unchanged, never completed
                let rebuild = context.startWork("rebuild-index")
                app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                    rebuild.finish()
                    task.setTaskCompleted(success: true)
                }
            }
        }
        observation = context.onDidEnterBackground {
            try? scheduler.submit(TaskRequest(identifier: Self.processing, kind: .processing(
                requiresNetworkConnectivity: false, requiresExternalPower: false)))
        }
    }
}
