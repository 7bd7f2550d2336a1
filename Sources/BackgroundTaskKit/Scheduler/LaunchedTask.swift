import Synchronization

/// A `BGTask` the system launched, as ``BackgroundTaskScheduler`` hands it to your launch
/// handler: completed exactly once on every path, including expiry.
///
/// ```swift
/// try scheduler.register("com.example.refresh") { task in
///     let fetch = feed.refresh { ok in task.complete(success: ok) }
///     task.onExpiration { fetch.cancel() }   // then the task is completed as failed
/// }
/// ```
///
/// Contract:
/// - ``complete(success:)`` calls `setTaskCompleted(success:)` the first time only (C4.7
///   makes later calls no-ops on a device; here they never reach the system).
/// - On expiry, the handlers given to ``onExpiration(_:)`` run in order on the registration
///   queue, then the task is completed unsuccessfully, before the system's handler returns
///   (C4.4-C4.6) — unless your handler completed it first.
/// - Releasing the last reference of an uncompleted task completes it unsuccessfully (C4.8
///   calls that a programmer error; here it cannot happen).
/// - Thread-safe.
public final class LaunchedTask: Sendable, CustomStringConvertible {
    private let core: LaunchedTaskCore

    /// The registered identifier (C4.9).
    public var identifier: String { core.task.identifier }
    /// The kind of request that launched the task.
    public var kind: TaskRequest.Kind { core.task.kind }
    /// For a repeating refresh: the error from submitting the next request, done before your
    /// handler was called; nil when the submission succeeded or this is not a repeating refresh.
    public var resubmissionError: TaskSubmissionError? { core.resubmissionError }

    /// Takes charge of `task`: its expiration handler is set first, before anything else can
    /// yield (a task that expires without one is completed by the system, C4.5). For a repeating
    /// refresh, `resubmit` is called exactly once, before the task can be completed on any path:
    /// by ``prepare()`` when the launch goes on normally, or by the first completion (an expiry
    /// that came first) otherwise; it runs under the task's lock, inside `host`'s
    /// ``CoreLockHost/whileCoreHoldsLock(_:)`` (the scheduler it submits to).
    init(task: any ScheduledTask, host: (any CoreLockHost)? = nil,
         resubmit: (@Sendable () -> TaskSubmissionError?)? = nil) {
        self.core = LaunchedTaskCore(task: task, host: host, resubmit: resubmit)
        let core = self.core
        task.expirationHandler = { core.expire() }
    }

    /// Runs the resubmission now unless a completion already did (see ``init(task:resubmit:)``).
    func prepare() { core.prepare() }

    /// Completes the task. Only the first call (or the expiry) reaches the system.
    ///
    /// - Returns: true for the call that completed it.
    @discardableResult
    public func complete(success: Bool) -> Bool { core.complete(success: success) }

    /// Adds a handler for expiry; it runs before the task is completed as failed. Added after
    /// the task expired, it runs at once; after a normal completion, never.
    public func onExpiration(_ handler: @escaping @Sendable () -> Void) { core.addHandler(handler) }

    /// Whether the task has been completed (by you or by expiry).
    public var isCompleted: Bool { core.outcome != nil }
    /// Whether the system expired the task.
    public var isExpired: Bool { core.expired }
    /// The value given to `setTaskCompleted(success:)`, once completed.
    public var completedSuccessfully: Bool? { core.outcome }

    /// Reports continued-processing progress (C6.6); other kinds ignore it.
    public func updateProgress(completedUnitCount: Int64, totalUnitCount: Int64) {
        core.task.updateProgress(completedUnitCount: completedUnitCount, totalUnitCount: totalUnitCount)
    }

    public var description: String {
        "LaunchedTask(\(identifier), \(core.outcome.map { $0 ? "succeeded" : "failed" } ?? "running"))"
    }

    deinit { core.complete(success: false) }
}

final class LaunchedTaskCore: Sendable {
    private struct State {
        var outcome: Bool?
        var expired = false
        var handlers: [@Sendable () -> Void] = []
        /// The resubmission still to do (nil once done, or for tasks without one).
        var resubmit: (@Sendable () -> TaskSubmissionError?)?
        var resubmissionError: TaskSubmissionError?
    }

    let task: any ScheduledTask
    /// The scheduler the resubmission reaches under ``state``'s lock (nil: no resubmission).
    private let host: (any CoreLockHost)?
    private let state: Mutex<State>

    init(task: any ScheduledTask, host: (any CoreLockHost)?, resubmit: (@Sendable () -> TaskSubmissionError?)?) {
        self.task = task
        self.host = resubmit == nil ? nil : host
        state = Mutex(State(resubmit: resubmit))
    }

    /// Runs `body`, which may resubmit under the lock, inside the host's seam.
    private func whileResubmissionMayRun<Result>(_ body: () -> Result) -> Result {
        guard let host else { return body() }
        return host.whileCoreHoldsLock(body)
    }

    var resubmissionError: TaskSubmissionError? { state.withCriticalSection { $0.resubmissionError } }

    /// Does the pending resubmission, once. Under the lock on purpose: a completion racing with
    /// it (an expiry on the registration queue) waits until the next request is submitted, so
    /// the chain of refreshes never has a gap (C2.1, C4.6). The submission takes only the
    /// scheduler's own lock, never this one.
    func prepare() {
        whileResubmissionMayRun {
            state.withCriticalSection { state in
                guard let resubmit = state.resubmit.take() else { return }
                state.resubmissionError = resubmit()
            }
        }
    }

    var outcome: Bool? { state.withCriticalSection { $0.outcome } }
    var expired: Bool { state.withCriticalSection { $0.expired } }

    @discardableResult
    func complete(success: Bool) -> Bool {
        let first = whileResubmissionMayRun {
            state.withCriticalSection { state in
                guard state.outcome == nil else { return false }
                if let resubmit = state.resubmit.take() { state.resubmissionError = resubmit() }
                state.outcome = success
                state.handlers = []
                return true
            }
        }
        guard first else { return false }
        task.setTaskCompleted(success: success)
        task.expirationHandler = nil  // C4.4 clears it too; this also releases our capture
        return true
    }

    func addHandler(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withCriticalSection { state in
            if state.expired { return true }
            if state.outcome == nil { state.handlers.append(handler) }
            return false
        }
        if runNow { handler() }
    }

    /// The system's expiration handler: the user's handlers, then the completion.
    func expire() {
        let handlers = state.withCriticalSection { state -> [@Sendable () -> Void] in
            guard state.outcome == nil, !state.expired else { return [] }
            state.expired = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
        complete(success: false)
    }
}
