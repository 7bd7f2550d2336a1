/// How many of a queue's ready jobs may be offered to the scheduler at once.
///
/// ```swift
/// let database = scheduler.makeQueue(label: "db", kind: .serial)
/// let workers = scheduler.makeQueue(label: "workers", kind: .concurrent(width: 4))
/// ```
///
/// Contract: a serial queue offers only its first ready job (FIFO); a concurrent queue of width
/// `w` offers its first `w` ready jobs, in (time, job id) order. A width below 1 acts as 1.
public enum QueueKind: Hashable, Sendable {
    /// One job at a time, first in first out.
    case serial
    /// Up to `width` jobs compete to run next.
    case concurrent(width: Int)

    /// The number of ready jobs the queue offers per step (at least 1).
    public var width: Int {
        switch self {
        case .serial: 1
        case .concurrent(let width): max(1, width)
        }
    }
}
