extension LaunchedTask {
    /// Runs `operation` as a new Swift task that owns this launched task: expiry cancels the
    /// Swift task, and the `BGTask` is completed exactly once, successfully when `operation`
    /// returns uncancelled, unsuccessfully when it throws, is cancelled or the task expires.
    ///
    /// ```swift
    /// launched.run(executorPreference: nil) { task in
    ///     try await feed.refresh()        // cancelled if the system expires the task
    /// }
    /// ```
    ///
    /// Contract: the expiration handler is in place before this returns (an expiry that came
    /// first cancels the Swift task at once); on expiry the `BGTask` is completed as failed
    /// before the system's handler returns (C4.5), whatever `operation` still does; an explicit
    /// ``complete(success:)`` inside `operation` wins over the automatic one. The Swift task
    /// keeps this object alive until `operation` ends.
    func run(
        executorPreference: (any TaskExecutor)?,
        _ operation: @escaping @Sendable (LaunchedTask) async throws -> Void
    ) {
        let work = Task(executorPreference: executorPreference) { [self] in
            do {
                try await operation(self)
                complete(success: !Task.isCancelled)
            } catch {
                complete(success: false)
            }
        }
        onExpiration { work.cancel() }
    }
}
