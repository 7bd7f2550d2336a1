public import BackgroundTaskKit
import DeterministicSimulation

/// A running `BGTask` (C4): what a launch handler receives.
///
/// Contract (C4.4-C4.7): the expiration handler is called at most once, on the registration
/// queue, and cleared when called or when the task completes; `setTaskCompleted` completes the
/// task the first time and is a no-op afterwards (the simulator records the repeat so the
/// `bgtask-completed-once` invariant can see it).
public final class SimulatedBGTask: ScheduledTask, @unchecked Sendable {
    // @unchecked: confined to the run's thread.
    public let identifier: String
    public let kind: TaskRequest.Kind
    /// The task's number in this run, from 1.
    public let number: Int
    let queue: SimulatedWorkQueue?
    unowned let service: TaskSchedulerService
    weak var app: SimulatedApplication?
    public internal(set) var isCompleted = false
    var expiring = false
    var timers: [JobID] = []
    var lastProgress: Int64 = -1
    var progressChangedSinceCheck = false
    private var handler: ExpirationHandler?

    init(identifier: String, kind: TaskRequest.Kind, number: Int, queue: SimulatedWorkQueue?, service: TaskSchedulerService) {
        self.identifier = identifier
        self.kind = kind
        self.number = number
        self.queue = queue
        self.service = service
    }

    public var expirationHandler: ExpirationHandler? {
        get { handler }
        set { handler = isCompleted ? nil : newValue }
    }

    /// Takes the handler out, leaving nil (C4.4 "cleared after it is called").
    func takeExpirationHandler() -> ExpirationHandler? {
        defer { handler = nil }
        return handler
    }

    public func setTaskCompleted(success: Bool) {
        service.complete(self, success: success)
    }

    public func updateProgress(completedUnitCount: Int64, totalUnitCount: Int64) {
        guard case .continuedProcessing = kind, !isCompleted else { return }
        if completedUnitCount != lastProgress {
            lastProgress = completedUnitCount
            progressChangedSinceCheck = true
        }
        service.device.emit(.bgTaskProgress(identifier: identifier, task: number,
                                            completed: completedUnitCount, total: totalUnitCount))
    }
}
