public import Foundation
import Synchronization

/// A deterministic ``TaskSchedulerHost`` for unit tests, driven by a ``FakeHost``: launch and
/// expire tasks by hand, switch Background App Refresh off, and read what a device would have
/// crashed on.
///
/// ```swift
/// let app = FakeHost(hasFinishedLaunching: false)
/// let bg = FakeTaskScheduler(host: app)
/// let scheduler = BackgroundTaskScheduler(scheduler: bg, lifecycle: app)
/// try scheduler.register("com.example.refresh") { task in task.complete(success: true) }
/// app.finishLaunching()
/// try scheduler.submit(TaskRequest(identifier: "com.example.refresh", kind: .appRefresh))
/// let task = bg.launch("com.example.refresh")!
/// #expect(task.completions == [true])
/// ```
///
/// Contract (reference C1-C5): `register` returns false for an identifier not permitted;
/// a second registration, a registration after launch (continued processing exempt: pass it
/// in `exemptIdentifiers`) and a submission without registration are recorded in ``crashes``
/// (the system would raise) instead of trapping. `submit` throws `.unavailable` while
/// ``isBackgroundRefreshEnabled`` is false and `.notPermitted` for unpermitted identifiers,
/// and replaces a pending request with the same identifier. ``launch(_:)`` consumes the
/// pending request (C3.6) and calls the handler synchronously, or on its queue.
public final class FakeTaskScheduler: TaskSchedulerHost, Sendable {
    private struct Registration {
        var identifier: String
        var queue: (any WorkQueue)?
        var handler: @Sendable (any ScheduledTask) -> Void
    }

    private struct State {
        var registrations: [Registration] = []
        var pending: [TaskRequest] = []
        var crashes: [String] = []
        var refreshEnabled = true
    }

    private let host: FakeHost
    private let permitted: [String]?
    private let exempt: [String]
    private let state = Mutex(State())

    /// A scheduler for `host`'s process.
    ///
    /// - Parameters:
    ///   - permittedIdentifiers: `BGTaskSchedulerPermittedIdentifiers`; nil permits all.
    ///   - exemptIdentifiers: identifiers that may register after launch (continued processing).
    public init(host: FakeHost, permittedIdentifiers: [String]? = nil, exemptIdentifiers: [String] = []) {
        self.host = host
        self.permitted = permittedIdentifiers
        self.exempt = exemptIdentifiers
    }

    public func register(
        forTaskWithIdentifier identifier: String, using queue: (any WorkQueue)?,
        launchHandler: @escaping @Sendable (any ScheduledTask) -> Void
    ) -> Bool {
        guard permits(identifier) else { return false }
        let launched = host.hasFinishedLaunching
        return state.withCriticalSection { state in
            if state.registrations.contains(where: { $0.identifier == identifier }) {
                state.crashes.append("Launch handler for task with identifier \(identifier) has already been registered")
                return false
            }
            if launched && !exempt.contains(identifier) {
                state.crashes.append("All launch handlers must be registered before application finishes launching")
                return false
            }
            state.registrations.append(Registration(identifier: identifier, queue: queue, handler: launchHandler))
            return true
        }
    }

    public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        let outcome: TaskSchedulerError? = state.withCriticalSection { state in
            guard state.refreshEnabled else { return .unavailable }
            guard permits(request.identifier) else { return .notPermitted }
            guard state.registrations.contains(where: { $0.identifier == request.identifier }) else {
                state.crashes.append("No launch handler registered for task with identifier \(request.identifier)")
                return nil
            }
            state.pending.removeAll { $0.identifier == request.identifier }
            state.pending.append(request)
            return nil
        }
        if let outcome { throw outcome }
    }

    public func cancel(taskRequestWithIdentifier identifier: String) {
        state.withCriticalSection { $0.pending.removeAll { $0.identifier == identifier } }
    }

    public func cancelAllTaskRequests() { state.withCriticalSection { $0.pending.removeAll() } }

    /// Calls back on the host's background queue (C3.4).
    public func getPendingTaskRequests(completionHandler: @escaping @Sendable ([TaskRequest]) -> Void) {
        let snapshot = pendingRequests
        host.backgroundQueue.async { completionHandler(snapshot) }
    }

    /// The host's virtual time, from a fixed epoch (2026-01-01T00:00:00Z).
    public var now: Date {
        let elapsed = host.now.components
        return Date(timeIntervalSince1970: 1_767_225_600 + Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    // MARK: Verbs

    /// Background App Refresh (Settings); off makes `submit` throw `.unavailable` (C2.3).
    public var isBackgroundRefreshEnabled: Bool {
        get { state.withCriticalSection { $0.refreshEnabled } }
        set { state.withCriticalSection { $0.refreshEnabled = newValue } }
    }

    /// The system launches the task for `identifier`: consumes its pending request and calls
    /// the launch handler (synchronously, or on the registration queue: then run the host).
    ///
    /// - Returns: the running task, or nil when no handler is registered.
    @discardableResult
    public func launch(_ identifier: String, kind: TaskRequest.Kind? = nil) -> FakeScheduledTask? {
        let found = state.withCriticalSection { state -> (Registration, TaskRequest.Kind)? in
            guard let registration = state.registrations.first(where: { $0.identifier == identifier }) else {
                return nil
            }
            let request = state.pending.first { $0.identifier == identifier }
            state.pending.removeAll { $0.identifier == identifier }
            return (registration, kind ?? request?.kind ?? .appRefresh)
        }
        guard let (registration, kind) = found else { return nil }
        let task = FakeScheduledTask(identifier: identifier, kind: kind)
        if let queue = registration.queue {
            queue.async { registration.handler(task) }
        } else {
            registration.handler(task)
        }
        return task
    }

    /// Requests submitted and not yet launched or cancelled, in submission order.
    public var pendingRequests: [TaskRequest] { state.withCriticalSection { $0.pending } }
    /// What a device would have raised an exception for (C1.3, C1.4, C2.4).
    public var crashes: [String] { state.withCriticalSection { $0.crashes } }
    /// Registered identifiers, in order.
    public var registeredIdentifiers: [String] { state.withCriticalSection { $0.registrations.map(\.identifier) } }

    private func permits(_ identifier: String) -> Bool { permitted?.contains(identifier) ?? true }
}

/// A running fake `BGTask`, recording every completion call.
///
/// ```swift
/// let task = bg.launch("com.example.refresh")!
/// task.expire()                        // the system's expiry (C5.2)
/// #expect(task.completions == [false]) // completed exactly once, unsuccessfully
/// ```
///
/// Contract: as ``ScheduledTask``: ``expire()`` takes and clears the handler, calls it, or
/// completes the task unsuccessfully when there is none (C4.5); the handler is also cleared on
/// the first completion (C4.4). Every `setTaskCompleted` call is recorded, the first one
/// counts (C4.7).
public final class FakeScheduledTask: ScheduledTask, Sendable {
    private struct State {
        var handler: ScheduledTaskExpirationHandler?
        var completions: [Bool] = []
        var progress: [(Int64, Int64)] = []
        var expired = false
    }

    public let identifier: String
    public let kind: TaskRequest.Kind
    private let state = Mutex(State())

    /// A task for `identifier`.
    public init(identifier: String, kind: TaskRequest.Kind = .appRefresh) {
        self.identifier = identifier
        self.kind = kind
    }

    public var expirationHandler: ScheduledTaskExpirationHandler? {
        get { state.withCriticalSection { $0.handler } }
        set { state.withCriticalSection { $0.handler = $0.completions.isEmpty ? newValue : nil } }
    }

    public func setTaskCompleted(success: Bool) {
        state.withCriticalSection { state in
            state.completions.append(success)
            state.handler = nil
        }
    }

    public func updateProgress(completedUnitCount: Int64, totalUnitCount: Int64) {
        state.withCriticalSection { $0.progress.append((completedUnitCount, totalUnitCount)) }
    }

    /// The system expires the task, on the calling thread.
    public func expire() {
        let handler = state.withCriticalSection { state -> ScheduledTaskExpirationHandler? in
            guard state.completions.isEmpty, !state.expired else { return nil }
            state.expired = true
            defer { state.handler = nil }
            return state.handler ?? { [weak self] in self?.setTaskCompleted(success: false) }
        }
        handler?()
    }

    /// Every `setTaskCompleted(success:)` call, in order; exactly one element when used right.
    public var completions: [Bool] { state.withCriticalSection { $0.completions } }
    /// Progress reports, in order.
    public var progressReports: [(completed: Int64, total: Int64)] { state.withCriticalSection { $0.progress.map { ($0.0, $0.1) } } }
}
