import Foundation
import Synchronization

/// `BGTaskScheduler` with the traps taken out: registration that can only happen in time,
/// submission errors as typed errors, launch handlers that complete every task exactly once,
/// and repeating refreshes that resubmit on every path.
///
/// ```swift
/// // In application(_:didFinishLaunchingWithOptions:), before it returns:
/// let scheduler = BackgroundTaskScheduler(scheduler: bgScheduler, lifecycle: app)
/// try scheduler.registerRepeatingRefresh("com.example.refresh", every: .seconds(15 * 60)) { task in
///     feed.refresh { ok in task.complete(success: ok) }
///     task.onExpiration { feed.cancelRefresh() }
/// }
/// // Later, when the app goes to the background:
/// do { try scheduler.submitRepeatingRefresh("com.example.refresh") }
/// catch { logger.error("\(error)") }      // e.g. .scheduler(.unavailable): refresh is off
/// ```
///
/// Contract:
/// - Registration throws ``TaskRegistrationError`` instead of reaching the system when launch
///   has finished (continued-processing identifiers are exempt, C1.1), when the identifier was
///   already registered through this scheduler, or when the system refuses it. Use one
///   scheduler per process: registrations are tracked per instance.
/// - Submission throws ``TaskSubmissionError``: `.notRegistered` instead of the system's
///   exception (C2.4), `.scheduler` for the system's errors. Nothing is swallowed or fatal.
/// - Launch handlers get a ``LaunchedTask``, which completes its `BGTask` exactly once on
///   every path (C4.4-C4.7).
/// - A repeating refresh submits its next request *before* your handler runs, so the chain
///   continues whether the task succeeds, fails, expires or is never completed (P8).
public final class BackgroundTaskScheduler: Sendable {
    private struct State {
        var registered: [String] = []
        var refreshIntervals: [String: Duration] = [:]
    }

    private let scheduler: any TaskSchedulerHost
    private let lifecycle: any LifecycleHost
    private let state = Mutex(State())

    /// A wrapper over `scheduler`; `lifecycle` tells whether launch has finished.
    public init(scheduler: any TaskSchedulerHost, lifecycle: any LifecycleHost) {
        self.scheduler = scheduler
        self.lifecycle = lifecycle
    }

    /// Registers the launch handler for `identifier` (`BGAppRefreshTask`/`BGProcessingTask`).
    ///
    /// - Parameters:
    ///   - queue: where the launch and expiration handlers run; nil means the framework's serial
    ///     background queue (C1.5).
    ///   - launchHandler: gets each launched task; complete it (or let expiry do it).
    /// - Throws: ``TaskRegistrationError``; the system is not called in the first two cases.
    public func register(
        _ identifier: String, queue: (any WorkQueue)? = nil,
        launchHandler: @escaping @Sendable (LaunchedTask) -> Void
    ) throws(TaskRegistrationError) {
        guard !lifecycle.hasFinishedLaunching else { throw .launchAlreadyFinished(identifier: identifier) }
        try register(identifier, queue: queue) { task in launchHandler(LaunchedTask(task: task)) }
    }

    /// Registers a `BGContinuedProcessingTask` handler (iOS 26). Exempt from the before-launch
    /// rule (C1.1); each concrete identifier still registers once (C6.2).
    public func registerContinuedProcessing(
        _ identifier: String, queue: (any WorkQueue)? = nil,
        launchHandler: @escaping @Sendable (LaunchedTask) -> Void
    ) throws(TaskRegistrationError) {
        try register(identifier, queue: queue) { task in launchHandler(LaunchedTask(task: task)) }
    }

    /// Registers a refresh that reschedules itself: each launch first submits the next
    /// `appRefresh` request, `interval` from now, then calls `launchHandler`. A failed
    /// resubmission is in ``LaunchedTask/resubmissionError``.
    ///
    /// - Throws: ``TaskRegistrationError`` as ``register(_:queue:launchHandler:)``.
    public func registerRepeatingRefresh(
        _ identifier: String, every interval: Duration, queue: (any WorkQueue)? = nil,
        launchHandler: @escaping @Sendable (LaunchedTask) -> Void
    ) throws(TaskRegistrationError) {
        guard !lifecycle.hasFinishedLaunching else { throw .launchAlreadyFinished(identifier: identifier) }
        try register(identifier, queue: queue) { [self] task in
            // The expiration handler first, then the resubmission (at once, or by an expiry that
            // comes first), then the app's handler: no path completes the task without a next
            // request (C2.1, C4.5, C4.6).
            let launched = LaunchedTask(task: task, host: scheduler) { [self] in
                do throws(TaskSubmissionError) {
                    try submitRepeatingRefresh(identifier)
                    return nil
                } catch {
                    return error
                }
            }
            launched.prepare()
            launchHandler(launched)
        }
        state.withCriticalSection { $0.refreshIntervals[identifier] = interval }
    }

    /// Submits a request (replacing a pending one with the same identifier, C2.1).
    ///
    /// - Throws: ``TaskSubmissionError``.
    public func submit(_ request: TaskRequest) throws(TaskSubmissionError) {
        let known = state.withCriticalSection { $0.registered.contains(request.identifier) }
        guard known else { throw .notRegistered(identifier: request.identifier) }
        do {
            try scheduler.submit(request)
        } catch {
            throw .scheduler(error)
        }
    }

    /// Submits the next request of a repeating refresh: `appRefresh`, earliest `interval` from
    /// now. Call it once to start the chain (for example on entering the background); the
    /// launches keep it going.
    ///
    /// - Throws: `.notRegistered` if `identifier` was not registered with
    ///   ``registerRepeatingRefresh(_:every:queue:launchHandler:)``; `.scheduler` otherwise.
    public func submitRepeatingRefresh(_ identifier: String) throws(TaskSubmissionError) {
        guard let interval = state.withCriticalSection({ $0.refreshIntervals[identifier] }) else {
            throw .notRegistered(identifier: identifier)
        }
        let begin = scheduler.now.addingTimeInterval(interval.timeInterval)
        try submit(TaskRequest(identifier: identifier, kind: .appRefresh, earliestBeginDate: begin))
    }

    /// Cancels the pending request for `identifier`, if any.
    public func cancel(_ identifier: String) { scheduler.cancel(taskRequestWithIdentifier: identifier) }

    /// Cancels every pending request.
    public func cancelAll() { scheduler.cancelAllTaskRequests() }

    /// The pending requests, delivered on a queue of the scheduler's choosing (C3.4).
    public func pendingRequests(_ completion: @escaping @Sendable ([TaskRequest]) -> Void) {
        scheduler.getPendingTaskRequests(completionHandler: completion)
    }

    /// Identifiers registered through this scheduler, in registration order.
    public var registeredIdentifiers: [String] { state.withCriticalSection { $0.registered } }

    // MARK: Registration

    private func register(
        _ identifier: String, queue: (any WorkQueue)?,
        handler: @escaping @Sendable (any ScheduledTask) -> Void
    ) throws(TaskRegistrationError) {
        let claimed = state.withCriticalSection { state in
            guard !state.registered.contains(identifier) else { return false }
            state.registered.append(identifier)
            return true
        }
        guard claimed else { throw .alreadyRegistered(identifier: identifier) }
        guard scheduler.register(forTaskWithIdentifier: identifier, using: queue, launchHandler: handler) else {
            state.withCriticalSection { $0.registered.removeAll { $0 == identifier } }
            throw .notPermitted(identifier: identifier)
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    var timeInterval: TimeInterval {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
