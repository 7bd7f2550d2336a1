extension BackgroundTaskScheduler {
    /// Registers an async launch handler for `identifier`: each launch runs `operation` in a new
    /// Swift task, cancelled when the system expires the `BGTask`, and completes the `BGTask`
    /// exactly once: success when `operation` returns, failure when it throws, is cancelled or
    /// expires.
    ///
    /// ```swift
    /// try scheduler.registerAsync("com.example.cleanup") { task in
    ///     try await database.vacuum()     // throwing completes the task as failed
    /// }
    /// ```
    ///
    /// Contract: as ``register(_:queue:launchHandler:)`` for registration (before launch
    /// finishes; throws ``TaskRegistrationError``). The launch handler starts the Swift task
    /// on `queue` and returns at once; `operation` must `await` all the work it starts (a task it
    /// leaves running is not covered once the `BGTask` is completed). On expiry the Swift task
    /// is cancelled and the `BGTask` completed as failed before the expiration handler returns,
    /// so code that ignores cancellation does not keep the app alive. Thread-safe.
    /// - Parameters:
    ///   - queue: where the launch and expiration handlers run; nil means the framework's serial
    ///     background queue.
    ///   - executorPreference: the task executor the Swift task prefers (a simulator's, in
    ///     tests); nil runs it as `Task {}` would.
    ///   - operation: the work of one launch; it gets the ``LaunchedTask`` (for progress, or to
    ///     complete it early).
    public func registerAsync(
        _ identifier: String, queue: (any WorkQueue)? = nil, executorPreference: (any TaskExecutor)? = nil,
        operation: @escaping @Sendable (LaunchedTask) async throws -> Void
    ) throws(TaskRegistrationError) {
        try register(identifier, queue: queue) { launched in
            launched.run(executorPreference: executorPreference, operation)
        }
    }

    /// ``registerRepeatingRefresh(_:every:queue:launchHandler:)`` with an async handler: each
    /// launch submits the next request first, then runs `operation` as ``registerAsync(_:queue:executorPreference:operation:)``
    /// does (cancelled on expiry; the `BGTask` completed exactly once).
    ///
    /// ```swift
    /// try scheduler.registerRepeatingRefreshAsync("com.example.refresh", every: .seconds(900)) { _ in
    ///     try await feed.refresh()
    /// }
    /// ```
    ///
    /// Contract: as both forms it combines. Thread-safe.
    public func registerRepeatingRefreshAsync(
        _ identifier: String, every interval: Duration, queue: (any WorkQueue)? = nil,
        executorPreference: (any TaskExecutor)? = nil,
        operation: @escaping @Sendable (LaunchedTask) async throws -> Void
    ) throws(TaskRegistrationError) {
        try registerRepeatingRefresh(identifier, every: interval, queue: queue) { launched in
            launched.run(executorPreference: executorPreference, operation)
        }
    }
}
