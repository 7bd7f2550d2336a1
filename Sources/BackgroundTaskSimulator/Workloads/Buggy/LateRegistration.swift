import BackgroundTaskKit

/// P6: BGTaskScheduler launch handlers registered when the scene connects instead of before
/// launch finishes (TestBGScheduler sample; shiny #280). iOS raises
/// `NSInternalInconsistencyException: All launch handlers must be registered before application
/// finishes launching` (C1.4); on a background launch the scene never connects, so the task has
/// no handler at all (C1.1).
///
/// Expected: `bgtask-registered-in-time`.
final class LateRegistrationApp: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; state that several threads reach is
    // guarded where the workload says so.
    static let refresh = "com.example.bgapp.refresh"

    func didFinishLaunching(_ context: WorkloadContext) {}

    func sceneWillConnect(_ context: WorkloadContext) {
        let scheduler = context.taskScheduler
        _ = scheduler.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in  // the bug
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            task.setTaskCompleted(success: true)
        }
        try? scheduler.submit(TaskRequest(identifier: Self.refresh, kind: .appRefresh))
    }
}
