extension SimulationTaskExecutor {
    /// Runs `operation` with the calling task recorded as waiting: if the run ends while the
    /// task is suspended inside it, ``Scheduler/drainAsync(maxJobs:)`` cancels the task so that
    /// its cancellation handlers resume it and its memory is freed. Wrap every wait that a
    /// cancellation handler ends (a continuation around a cancellable callback API) in it;
    /// `WorkloadContext.withTaskCancellationHandler` does.
    ///
    /// ```swift
    /// try await context.taskExecutor.withCancellableWait {
    ///     try await withTaskCancellationHandler {
    ///         try await withCheckedThrowingContinuation { download.start(resumingOnCancel: $0) }
    ///     } onCancel: { download.cancel() }
    /// }
    /// ```
    ///
    /// Why on the executor and not the scheduler: a task suspended forever inside the call
    /// (a continuation never resumed) keeps what the call holds; the executor refers to the
    /// scheduler unowned, so such a task does not keep the whole run alive.
    ///
    /// Contract: outside this run's jobs it just runs `operation`. Costs two array updates and
    /// no suspension.
    public func withCancellableWait<T>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> T
    ) async rethrows -> T {
        guard RunThreadMarker.isMarked(scheduler), let wait = state.ledger.enterWait() else {
            return try await operation()
        }
        defer {
            // The task may resume on another simulated thread of the run (still the baton holder).
            if RunThreadMarker.isMarked(scheduler) { state.ledger.leaveWait(wait) }
        }
        return try await operation()
    }
}
