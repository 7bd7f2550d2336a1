public import DeterministicSimulation

/// A property every run must keep, checked by watching the run's event stream.
///
/// Each checker keeps its own record of what it has seen (STYLE habit 4) and reports a violation
/// as one line in terms of the iOS API: task id and name, virtual time, app state.
///
/// ```swift
/// final class NoDoubleEnd: InvariantChecker {
///     func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
///         if case .endedUnknownTask(let id) = event { return "task \(id) ended twice" }
///         return nil
///     }
/// }
/// ```
///
/// Contract: `observe` is called for every event in order, after ``RunFacts`` has taken it in;
/// `finish` once at the end of the run. Each returns the messages of the violations it found.
public protocol InvariantChecker: AnyObject {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String?
    func finish(at time: VirtualTime, facts: RunFacts) -> [String]
}

extension InvariantChecker {
    public func finish(at time: VirtualTime, facts: RunFacts) -> [String] { [] }
}

/// A checker that says which events it reacts to, so ``RunMonitor`` calls it only for those (the
/// built-in checkers each care about a few of the thirty event kinds; calling every checker for
/// every event was a fifth of the cost of an event).
///
/// ```swift
/// static func observes(_ event: SimEvent) -> Bool {
///     switch event { case .taskEnded, .endedUnknownTask: true; default: false }
/// }
/// ```
///
/// Contract: for every event of a kind (case) for which ``observes(_:)`` is false, `observe`
/// returns nil and leaves the checker's record unchanged. It is asked once per case, with a
/// representative event, so it must depend only on the case, not the payload.
protocol EventFilteringChecker: InvariantChecker {
    static func observes(_ event: SimEvent) -> Bool
}

/// An invariant as the harness lists it: its stable id, the rule in one sentence, the reference
/// rules it rests on, which workloads it applies to, and how to make a checker for one run.
public struct Invariant: Sendable {
    /// Kebab-case, and stable once released (scripts and CI match on it).
    public var id: String
    /// The rule, stated as a property.
    public var rule: String
    /// Reference rule ids (A3.2, C4.7, …).
    public var references: [String]
    /// Whether the invariant means anything for this workload.
    public var applies: @Sendable (WorkloadInfo) -> Bool
    /// A fresh checker for one run of this specification (its workload and OS profile).
    public var makeChecker: @Sendable (RunSpec) -> any InvariantChecker

    public init(
        id: String, rule: String, references: [String],
        applies: @escaping @Sendable (WorkloadInfo) -> Bool = { _ in true },
        makeChecker: @escaping @Sendable (RunSpec) -> any InvariantChecker
    ) {
        self.id = id
        self.rule = rule
        self.references = references
        self.applies = applies
        self.makeChecker = makeChecker
    }
}
