/// A Swift `Clock` on a run's virtual time: `sleep` parks the task until a scheduler job at the
/// deadline resumes it, and cancelling a sleeping task wakes it at once with `CancellationError`.
///
/// ```swift
/// func retry(clock: any Clock<Duration>) async throws {   // the swift-clocks pattern
///     for attempt in 1...3 {
///         if upload() { return }
///         try await clock.sleep(for: .seconds(attempt * 2))
///     }
/// }
/// scheduler.enableAsync()
/// scheduler.async(on: scheduler.mainQueue) {
///     Task(executorPreference: scheduler.taskExecutor) { try await retry(clock: scheduler.asyncClock) }
/// }
/// ```
///
/// Contract:
/// - ``now`` is the scheduler's virtual time; ``minimumResolution`` is one microsecond, and
///   durations are rounded to it (as ``VirtualDuration/init(_:)``).
/// - ``sleep(until:tolerance:)`` always suspends: it schedules a job due at the deadline (a past
///   deadline is due now) on the task queue, and that job resumes the task. The tolerance is
///   ignored (virtual time has no coalescing to gain).
/// - A task already cancelled throws `CancellationError` without suspending. Cancelling a
///   sleeping task (from a job of the run) cancels its wake-up job and resumes it at once with
///   `CancellationError`: it continues at the virtual time of the cancellation.
/// - Sleeping off the run's threads, or cancelling a sleep from outside the run, is recorded in
///   ``Scheduler/asyncEscapes``; the sleep then throws `CancellationError` (or, for an outside
///   cancel, ends at its deadline).
/// - When the run is over (``Scheduler/drainAsync(maxJobs:)``), a sleeping task is cancelled,
///   and a task that sleeps during the drain cancels itself: every sleep throws
///   `CancellationError`, so cancellation-aware code finishes and its task is freed.
public struct SimulationClock: Clock, @unchecked Sendable {
    // @unchecked Sendable: `scheduler` is touched only on a thread running this run's jobs,
    // checked before each use in `sleep` and in the cancellation handler.

    /// A point on the run's virtual time.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The virtual time.
        public var time: VirtualTime

        /// Wraps a virtual time.
        ///
        /// ```swift
        /// let deadline = SimulationClock.Instant(time: .seconds(30))
        /// ```
        public init(time: VirtualTime) {
            self.time = time
        }

        /// The instant `duration` later (rounded to a microsecond, saturating).
        public func advanced(by duration: Duration) -> Instant {
            Instant(time: time + VirtualDuration(duration))
        }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            .microseconds(other.time.microseconds &- time.microseconds)
        }

        /// Orders instants by time.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.time < rhs.time
        }

        /// The time, as `"12.000345s"`.
        public var description: String { time.description }
    }

    unowned let scheduler: Scheduler
    let state: AsyncState
    let queue: QueueID

    init(scheduler: Scheduler, state: AsyncState, queue: QueueID) {
        self.scheduler = scheduler
        self.state = state
        self.queue = queue
    }

    /// The run's current virtual time.
    public var now: Instant { Instant(time: scheduler.now) }

    /// One microsecond, the resolution of virtual time.
    public var minimumResolution: Duration { .microseconds(1) }

    /// Suspends the calling task until the run's virtual time reaches `deadline`; see the
    /// type's contract.
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now.advanced(by: .seconds(5)), tolerance: nil)
    /// ```
    ///
    /// - Throws: `CancellationError` if the task is or becomes cancelled before the deadline.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        guard RunThreadMarker.isMarked(scheduler) else {
            state.recordForeign("a SimulationClock.sleep")
            throw CancellationError()
        }
        let sleeper = Sleeper(clock: self)
        // In the ledger while asleep: teardown cancels the task instead of abandoning it.
        let wait = state.ledger.enterWait()
        defer { if let wait, RunThreadMarker.isMarked(scheduler) { state.ledger.leaveWait(wait) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                sleeper.park(continuation, until: deadline.time)
            }
        } onCancel: {
            sleeper.cancel()
        }
    }
}
