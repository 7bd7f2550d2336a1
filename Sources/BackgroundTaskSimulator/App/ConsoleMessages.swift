import DeterministicSimulation

/// The console lines UIKit and BackgroundTasks log, with the exact wording the reference quotes,
/// so a simulated trace reads like a device log.
enum ConsoleMessages {
    /// Ending an unknown or already ended task (A5.2).
    static func cannotEnd(_ id: Int, wording: OSProfile.ConsoleWording) -> String {
        let hex = String(UInt(bitPattern: id), radix: 16)
        switch wording {
        case .modern:
            return "Can't end BackgroundTask: no background task exists with identifier \(id) (0x\(hex)), "
                + "or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug."
        case .legacy:
            return "Can't endBackgroundTask: no background task exists with identifier \(hex), "
                + "or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug."
        }
    }

    /// A task still open after its expiration handler returned (A3.6).
    static func stillNotEnded(_ task: OpenBackgroundTask, now: VirtualTime) -> String {
        let elapsed = (now - task.createdAt).microseconds / 1_000_000
        return "[BackgroundTask] Background task still not ended after expiration handlers were called: "
            + "<_UIBackgroundTaskInfo>: taskID = \(task.id), taskName = \(task.name), "
            + "creationTime = \(task.createdAt) (elapsed = \(elapsed)). This app will likely be terminated "
            + "by the system. Call UIApplication.endBackgroundTask(_:) to avoid this."
    }

    /// A task held for more than 30 s (A6.1).
    static func longHeld(_ task: OpenBackgroundTask) -> String {
        "[BackgroundTask] Background Task \(task.id) (\"\(task.name)\"), was created over 30 seconds ago. "
            + "In applications running in the background, this creates a risk of termination. Remember to "
            + "call UIApplication.endBackgroundTask(_:) for your task in a timely manner to avoid this."
    }

    /// `_simulateLaunchForTaskWithIdentifier` with nothing pending (C5.4).
    static func noTaskRequest(_ identifier: String) -> String {
        "No task request with identifier <\(identifier)> has been scheduled"
    }

    /// A BGTask released without completing (C4.8).
    static func deallocWithoutCompleting(_ task: Int) -> String {
        "Task <\(task)> dealloc'd without completing. This is a programmer error."
    }
}
