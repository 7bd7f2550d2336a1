/// What ``Scheduler/onJobStart`` learns about the job about to run.
///
/// ```swift
/// scheduler.onJobStart = { info in
///     trace.record(.jobStart(queue: info.queue.rawValue, job: info.job.rawValue), at: info.time)
/// }
/// ```
package struct JobInfo: Sendable {
    /// The job (for a repeating timer: the timer's id, the same for every fire).
    public let job: JobID
    /// The queue it runs on.
    public let queue: QueueID
    /// The simulated time it starts at (the clock's `now`).
    public let time: VirtualTime
    /// Whether it was scheduled for a time (`asyncAfter`, `async(at:)`, `repeating`) rather than
    /// with plain `async`.
    package let isTimer: Bool
    /// The time it was due; earlier than ``time`` when it waited (a frozen queue, a busy serial
    /// queue, or other jobs chosen first).
    package let dueTime: VirtualTime

    /// Creates a job description (for tests; the scheduler makes these).
    ///
    /// ```swift
    /// let info = JobInfo(job: JobID(rawValue: 1), queue: QueueID(rawValue: 0), time: .zero,
    ///                    isTimer: false, dueTime: .zero)
    /// ```
    public init(
        job: JobID, queue: QueueID, time: VirtualTime, isTimer: Bool, dueTime: VirtualTime
    ) {
        self.job = job
        self.queue = queue
        self.time = time
        self.isTimer = isTimer
        self.dueTime = dueTime
    }
}
