/// Identifies one job (or one repeating timer) of a ``Scheduler``: its sequence number.
///
/// ```swift
/// let timeout = scheduler.asyncAfter(.seconds(30), on: scheduler.mainQueue) { giveUp() }
/// // … the work finished first:
/// scheduler.cancel(timeout)
/// ```
///
/// Contract: numbers start at 1 and increase by 1 per scheduled job, so they also break ties
/// between jobs due at the same time (the earlier-scheduled job first). A repeating timer keeps
/// its id for all its fires.
public struct JobID: Hashable, Comparable, Sendable {
    /// The job's sequence number, from 1.
    public let rawValue: UInt64

    /// Wraps a sequence number (for tests and decoding; ordinary code gets ids from the scheduler).
    ///
    /// ```swift
    /// let first = JobID(rawValue: 1)
    /// ```
    ///
    /// - Parameter rawValue: the sequence number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Orders jobs by sequence number (scheduling order).
    public static func < (lhs: JobID, rhs: JobID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
