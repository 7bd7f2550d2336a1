public import Foundation

/// A `BGTaskScheduler` request: `BGAppRefreshTaskRequest`, `BGProcessingTaskRequest` or
/// `BGContinuedProcessingTaskRequest` (reference C3, C6).
///
/// ```swift
/// let request = TaskRequest(identifier: "com.example.refresh", kind: .appRefresh,
///                           earliestBeginDate: scheduler.now.addingTimeInterval(15 * 60))
/// try scheduler.submit(request)
/// ```
public struct TaskRequest: Sendable, Equatable, CustomStringConvertible {
    /// What kind of task the request asks for.
    public enum Kind: Sendable, Equatable {
        /// `BGAppRefreshTaskRequest`: about 30 s of runtime (C4.1).
        case appRefresh
        /// `BGProcessingTaskRequest`: minutes, when the device is idle (C3.3, C4.2).
        case processing(requiresNetworkConnectivity: Bool, requiresExternalPower: Bool)
        /// `BGContinuedProcessingTaskRequest` (iOS 26): starts from the foreground at once (C6).
        case continuedProcessing(title: String, subtitle: String, strategy: SubmissionStrategy)
    }

    /// `BGContinuedProcessingTaskRequest.SubmissionStrategy` (C6.4).
    public enum SubmissionStrategy: Int, Sendable, Equatable {
        case fail = 0
        case queue = 1
    }

    /// The registered identifier (one of `BGTaskSchedulerPermittedIdentifiers`).
    public var identifier: String
    /// What kind of task this is.
    public var kind: Kind
    /// The task starts no earlier than this; nil means no delay (C3.1).
    public var earliestBeginDate: Date?
    /// A continued-processing request that needs the GPU in the background
    /// (`requiredResources = .gpu`). It needs the
    /// `com.apple.developer.background-tasks.continued-processing.gpu` entitlement and a device
    /// that supports it, or `submit` fails with ``TaskSchedulerError/notPermitted`` (C6.5).
    /// Ignored for other kinds. Default false.
    public var requiresBackgroundGPU = false

    public init(identifier: String, kind: Kind, earliestBeginDate: Date? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBeginDate = earliestBeginDate
    }

    public var description: String { "\(kind.name) request \(identifier)" }
}

extension TaskRequest.Kind {
    /// `"appRefresh"`, `"processing"` or `"continuedProcessing"`.
    public var name: String {
        switch self {
        case .appRefresh: "appRefresh"
        case .processing: "processing"
        case .continuedProcessing: "continuedProcessing"
        }
    }
}

/// `BGTaskScheduler.Error.Code` (reference C2.3).
public enum TaskSchedulerError: Int, Error, Sendable, Equatable, CustomStringConvertible {
    /// Background refresh is off, or the platform cannot run background tasks.
    case unavailable = 1
    /// Too many pending requests of this kind (1 refresh, 10 processing; C2.2).
    case tooManyPendingTaskRequests = 2
    /// Missing background mode or identifier not permitted (C2.3).
    case notPermitted = 3
    /// A continued-processing request with strategy `.fail` could not start now (C6.4).
    case immediateRunIneligible = 4

    public var description: String {
        switch self {
        case .unavailable: "BGTaskSchedulerErrorCodeUnavailable (1)"
        case .tooManyPendingTaskRequests: "BGTaskSchedulerErrorCodeTooManyPendingTaskRequests (2)"
        case .notPermitted: "BGTaskSchedulerErrorCodeNotPermitted (3)"
        case .immediateRunIneligible: "BGTaskSchedulerErrorCodeImmediateRunIneligible (4)"
        }
    }
}

/// The expiration handler of a `BGTask`, as the SDK declares `BGTask.expirationHandler`:
/// `(() -> Void)?`, not main-actor bound. The system calls it on the queue the launch handler was
/// registered with (C1.5, C4.4), which is the main queue only if the app registered with it.
///
/// ```swift
/// task.expirationHandler = { refresh.cancel() }   // on the registration queue
/// ```
public typealias ScheduledTaskExpirationHandler = @Sendable () -> Void

/// A running `BGTask` handed to a launch handler (reference C4).
///
/// Contract: call ``setTaskCompleted(success:)`` exactly once on every path, including from the
/// ``expirationHandler`` (C4.6); later calls are no-ops (C4.7). The expiration handler is called
/// at most once, on the registration queue, and is cleared after it is called or once the task
/// completes (C4.4). With no expiration handler, expiry completes the task unsuccessfully (C4.5).
public protocol ScheduledTask: AnyObject, Sendable {
    /// The registered identifier this task runs for (C4.9).
    var identifier: String { get }
    /// The kind of request that launched it.
    var kind: TaskRequest.Kind { get }
    /// Called shortly before the task's time runs out.
    var expirationHandler: ScheduledTaskExpirationHandler? { get set }
    /// `setTaskCompleted(success:)`.
    func setTaskCompleted(success: Bool)
    /// Continued-processing progress (C6.6); other kinds ignore it.
    func updateProgress(completedUnitCount: Int64, totalUnitCount: Int64)
}

/// The `BGTaskScheduler` API (reference C1-C5).
///
/// ```swift
/// _ = scheduler.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
///     task.expirationHandler = { task.setTaskCompleted(success: false) }
///     refresh { task.setTaskCompleted(success: true) }
/// }
/// ```
///
/// Contract: `register` must be called before launch finishes, once per identifier (C1.1, C1.3,
/// C1.4); hosts report a late or repeated registration as the system would (a crash). `register`
/// returns false for an identifier that is not permitted (C1.2). `submit` throws
/// ``TaskSchedulerError`` and replaces a pending request with the same identifier (C2.1).
public protocol TaskSchedulerHost: CoreLockHost {
    /// `register(forTaskWithIdentifier:using:launchHandler:)`; `queue` nil means a serial
    /// background queue of the framework's, one per identifier (C1.5).
    func register(
        forTaskWithIdentifier identifier: String, using queue: (any WorkQueue)?,
        launchHandler: @escaping @Sendable (any ScheduledTask) -> Void
    ) -> Bool

    /// `submit(_:)`.
    func submit(_ request: TaskRequest) throws(TaskSchedulerError)

    /// `cancel(taskRequestWithIdentifier:)`.
    func cancel(taskRequestWithIdentifier identifier: String)

    /// `cancelAllTaskRequests()`.
    func cancelAllTaskRequests()

    /// `getPendingTaskRequests(completionHandler:)`: copies of the pending requests (C3.4).
    func getPendingTaskRequests(completionHandler: @escaping @Sendable ([TaskRequest]) -> Void)

    /// The current date on this host's clock (`Date()` on a device, virtual time in the
    /// simulator), for computing `earliestBeginDate`.
    var now: Date { get }
}
