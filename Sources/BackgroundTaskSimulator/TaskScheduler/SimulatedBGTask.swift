public import BackgroundTaskKit
import DeterministicSimulation

/// A running `BGTask` (C4): what a launch handler receives.
///
/// Contract (C4.4-C4.7): the expiration handler is called at most once, on the registration
/// queue, and cleared when called or when the task completes; `setTaskCompleted` completes the
/// task the first time and is a no-op afterwards (the simulator records the repeat so the
/// `bgtask-completed-once` invariant can see it).
public final class SimulatedBGTask: ScheduledTask, @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    public let identifier: String
    public let kind: TaskRequest.Kind
    /// The task's number in this run, from 1.
    public let number: Int
    let queue: SimulatedWorkQueue?
    unowned let service: TaskSchedulerService
    /// The process that launched the task, set when it is dispatched.
    var process = 0
    /// That process while the run lasts (nil before dispatch and after the run's teardown).
    /// Looked up, not held: the process holds its running tasks, and a weak reference back
    /// would put every retain and release of the process on the runtime's slow path (see
    /// ``LifecycleObserverList``).
    var app: SimulatedApplication? { service.device.process(numbered: process) }
    public internal(set) var isCompleted = false
    /// The system completed it unsuccessfully because it expired without a handler (C4.5): the
    /// app's own first `setTaskCompleted` after that is a silent no-op (C4.7) it could not avoid.
    var completedBySystem = false
    var expiring = false
    /// Whether the launch handler has been called: a process that ends before it is (the job
    /// still queued) gave the app's code no chance to act on the launch.
    var handlerStarted = false
    /// Whether the launch handler has returned: a process that ends between its call and its
    /// return (with threads, while the scheduler kept its thread off the CPU) cut it short.
    var handlerReturned = false
    /// The expiry and kill timers (C4.4, C4.6).
    var timers: [JobID] = []
    /// The no-progress timer of a continued-processing task (C6.7), re-armed on every progress.
    var stallTimer: JobID?
    var lastProgress: Int64 = -1
    private var handler: ScheduledTaskExpirationHandler?

    init(identifier: String, kind: TaskRequest.Kind, number: Int, queue: SimulatedWorkQueue?, service: TaskSchedulerService) {
        self.identifier = identifier
        self.kind = kind
        self.number = number
        self.queue = queue
        self.service = service
    }

    public var expirationHandler: ScheduledTaskExpirationHandler? {
        get { handler }
        set {
            // A point after the store, not before: a launch handler that sets its expiration
            // handler first (as it should) cannot be caught without one, which no code can avoid.
            handler = isCompleted ? nil : newValue
            service.device.scheduler.schedulingPoint()
        }
    }

    /// The probe recorded when a process ends with a task of `identifier` launched but its launch
    /// handler never called (``TaskSchedulerService/processDied(_:reason:)``): the launch consumed
    /// the request (C3.6) and no code of the app saw it, so `refresh-stays-scheduled` excuses the
    /// stopped chain until a new process has had its chance to submit.
    ///
    /// ```swift
    /// SimulatedBGTask.handlerNeverRanProbe("com.example.refresh")
    /// // "bgtask-handler-never-ran:com.example.refresh"
    /// ```
    static func handlerNeverRanProbe(_ identifier: String) -> String {
        "bgtask-handler-never-ran:\(identifier)"
    }

    /// The probe recorded when a process ends with a task of `identifier` whose launch handler
    /// was called and had not returned (``TaskSchedulerService/processDied(_:reason:)``): with
    /// threads the scheduler can keep the handler's thread off the CPU between its first lines
    /// (the expiration handler set, then the resubmission, as it should be), and a kill in that
    /// gap cuts it short before it could resubmit. `refresh-stays-scheduled` excuses it as a
    /// handler that never ran; a handler that returned without resubmitting is still found.
    ///
    /// ```swift
    /// SimulatedBGTask.handlerCutShortProbe("com.example.refresh")
    /// // "bgtask-handler-cut-short:com.example.refresh"
    /// ```
    static func handlerCutShortProbe(_ identifier: String) -> String {
        "bgtask-handler-cut-short:\(identifier)"
    }

    /// Takes the handler out, leaving nil (C4.4 "cleared after it is called").
    func takeExpirationHandler() -> ScheduledTaskExpirationHandler? {
        defer { handler = nil }
        return handler
    }

    public func setTaskCompleted(success: Bool) {
        service.device.scheduler.schedulingPoint()
        service.complete(self, success: success)
        service.device.scheduler.schedulingPoint()
    }

    public func updateProgress(completedUnitCount: Int64, totalUnitCount: Int64) {
        guard case .continuedProcessing = kind, !isCompleted else { return }
        service.device.emit(.bgTaskProgress(identifier: identifier, task: number,
                                            completed: completedUnitCount, total: totalUnitCount))
        if completedUnitCount != lastProgress {
            lastProgress = completedUnitCount
            service.armStallTimer(self)  // C6.7: the stall limit counts from the last progress
        }
    }
}
