/// One invariant violation in one run: which invariant, what went wrong, and when.
///
/// The engine's one failure shape: a target's verdict lists them (``RunVerdict/failures``), a
/// campaign's failures carry the first and the shrunk one, and the simulator's invariant
/// checkers report theirs as this type.
///
/// ```swift
/// let violation = Violation(invariant: "no-double-end", message: "task 3 ended twice", time: .seconds(12))
/// print(violation)   // no-double-end at 12.000000s: task 3 ended twice
/// ```
///
/// Contract: `invariant` is the checker's stable id; `description` is
/// `"<invariant> at <time>: <message>"`.
public struct Violation: Sendable, Equatable, CustomStringConvertible {
    /// The invariant's stable id, e.g. `"every-begin-ended"`.
    public var invariant: String
    /// What went wrong, for humans.
    public var message: String
    /// When the violation was seen, in virtual time.
    public var time: VirtualTime

    public init(invariant: String, message: String, time: VirtualTime) {
        self.invariant = invariant
        self.message = message
        self.time = time
    }

    public var description: String { "\(invariant) at \(time): \(message)" }
}

/// The engine's earlier name for ``Violation``, kept for one release so code written against it
/// still builds (with a deprecation warning naming the replacement). It will be removed in the
/// release after.
@available(*, deprecated, renamed: "Violation")
public typealias RunFailure = Violation
