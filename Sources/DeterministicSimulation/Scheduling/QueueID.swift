/// Identifies a simulated queue of one ``Scheduler``: its position in creation order.
///
/// ```swift
/// let uploads = scheduler.makeQueue(label: "uploads", kind: .serial)
/// uploads.rawValue            // 1: the main queue is 0
/// scheduler.label(of: uploads) // "uploads"
/// ```
///
/// Contract: the main queue is 0 and each ``Scheduler/makeQueue(label:kind:)`` returns the next
/// number. Ordering is creation order, which is also the order candidates are listed in when
/// the scheduler draws which job runs next. Meaningful only for the scheduler that made it.
public struct QueueID: Hashable, Comparable, Sendable {
    /// The queue's creation index.
    public let rawValue: Int

    /// Wraps a creation index (for tests and decoding; ordinary code gets ids from the scheduler).
    ///
    /// ```swift
    /// let main = QueueID(rawValue: 0)
    /// ```
    ///
    /// - Parameter rawValue: the creation index.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Orders queues by creation.
    public static func < (lhs: QueueID, rhs: QueueID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
