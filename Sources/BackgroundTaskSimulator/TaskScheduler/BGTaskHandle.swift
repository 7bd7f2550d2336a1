import BackgroundTaskKit
import DeterministicSimulation

/// The `BGTask` object a launch handler receives: the app's reference to a running task, apart
/// from the system's record of it (``SimulatedBGTask``), so the simulator can see the app let go
/// of a task it never completed (C4.8).
///
/// ```swift
/// scheduler.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
///     // forgetting `task` here, without setTaskCompleted, logs
///     // "Task <1> dealloc'd without completing. This is a programmer error."
/// }
/// ```
///
/// Contract: every property and method forwards to the record (C4.4-C4.7 hold as before). When
/// the last reference to the handle goes while the task is not completed and its process is
/// still alive, the console shows `Task <n> dealloc'd without completing. This is a programmer
/// error.` (C4.8, the decompiled `-[BGTask dealloc]`); nothing else changes: the system still
/// expires the task and kills the app at the end of its time (C4.6). An expiration handler that
/// captures its task keeps the handle alive until the handler is cleared (when called, or when
/// the task completes), as in iOS. Nothing is logged once the process is dead or the run is torn
/// down.
final class BGTaskHandle: ScheduledTask, @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    let task: SimulatedBGTask
    /// Checked before the deinit touches the run (a test may keep a task after its device).
    private let deviceReference: DeviceReference

    init(_ task: SimulatedBGTask, device: SimulatedDevice) {
        self.task = task
        deviceReference = DeviceReference(device, owner: "BGTaskHandle")
    }

    deinit {
        guard deviceReference.isDeviceAlive, !task.isCompleted, let app = task.app, app.isAlive else { return }
        deviceReference.device.emit(.console(ConsoleMessages.deallocWithoutCompleting(task.number)))  // C4.8
    }

    var identifier: String { task.identifier }
    var kind: TaskRequest.Kind { task.kind }

    var expirationHandler: ScheduledTaskExpirationHandler? {
        get { task.expirationHandler }
        set { task.expirationHandler = newValue }
    }

    func setTaskCompleted(success: Bool) { task.setTaskCompleted(success: success) }

    func updateProgress(completedUnitCount: Int64, totalUnitCount: Int64) {
        task.updateProgress(completedUnitCount: completedUnitCount, totalUnitCount: totalUnitCount)
    }
}
