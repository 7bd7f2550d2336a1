/// The system under test of a campaign: runs one run from a choice source and says how it went.
///
/// ```swift
/// struct Dice: CampaignTarget {
///     func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
///         let roll = choices.int(in: 1...6)
///         return RunVerdict(digest: TraceDigest(UInt64(roll)), eventCount: 1, simulatedTime: .zero,
///                           failures: roll == 6 ? [Violation(invariant: "no-six", message: "rolled 6", time: .zero)] : [])
///     }
/// }
/// ```
///
/// Contract: deterministic (the same choices give the same verdict, digest included, in any
/// process and on any thread) and safe to call from several threads at once: each run builds its
/// own world and shares nothing mutable.
public protocol CampaignTarget: Sendable {
    /// Runs one run, drawing every random decision from `choices`.
    ///
    /// - Parameters:
    ///   - choices: the run's only source of randomness.
    ///   - keepTrace: whether the verdict must carry the trace lines (for reports and replay);
    ///     campaigns pass `false` except when they rerun a failure.
    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict

    /// Runs one run, giving up once it has cost more than `costBudget` (in the target's own
    /// units, those of ``RunVerdict/cost``), and then returning a verdict with
    /// ``RunVerdict/overBudget`` set. The shrinker uses it so that a pathological candidate (an
    /// edited sequence that makes the run far longer) is rejected cheaply.
    ///
    /// Contract: a run that stays within the budget gives exactly the verdict of
    /// ``run(choices:keepTrace:)``. The default ignores the budget.
    func run(choices: ChoiceSource, keepTrace: Bool, costBudget: Int) -> RunVerdict

    /// Shrinks a failure of `invariant` whose run drew `recorded` somewhere a fault cannot reach
    /// the campaign: an isolated target (``IsolatedTarget``) shrinks it in a child process, where
    /// the shrinker and its candidates run in process (no round trip per candidate), so a trap
    /// or a hang costs only that shrink. The default is nil: the follow-up shrinks in process.
    ///
    /// Contract: a `.shrunk` result equals ``Shrinker/shrink(_:target:options:isCancelled:keeps:)``
    /// of `recorded` on this target with `keeps` = "the run still violates `invariant`".
    func shrinkInChild(_ recorded: ChoiceSequence, invariant: String, options: ShrinkOptions,
                       isCancelled: () -> Bool) -> ChildShrink?

    /// A target whose runs check only `invariant` (and what checking it needs), for the
    /// candidates of a shrink that keeps a failure of `invariant`
    /// (``Shrinker/shrink(_:target:while:options:isCancelled:)``): checking the other invariants
    /// on every candidate is work the shrink never reads.
    ///
    /// Contract: each run draws exactly what this target's run of the same choices draws, costs
    /// the same (``RunVerdict/cost``), stops the same way, and violates `invariant` exactly when
    /// it does; its other failures, events, digest and coverage may differ. The default is `self`.
    func checking(only invariant: String) -> any CampaignTarget

    /// How many runs a campaign worker hands over at once (``run(seeds:)``); 1 by default. An
    /// isolated target asks for batches: one pipe round trip per batch instead of per run.
    var preferredBatchSize: Int { get }

    /// Runs a batch of random runs, one per seed, without traces: the verdicts of
    /// ``run(choices:keepTrace:)`` with `ChoiceSource(seed:)` for each, in order. The default
    /// does exactly that, one by one.
    func run(seeds: [Seed]) -> [RunVerdict]

    /// Runs a batch of runs without traces, one per source, in order: the verdicts of
    /// ``run(choices:keepTrace:)`` for each, and each source afterwards reads as if it had run
    /// here (``ChoiceSource/recorded``). A coverage-guided campaign hands its runs over this way.
    /// The default does exactly that, one by one.
    func run(batch sources: [ChoiceSource]) -> [RunVerdict]
}

extension CampaignTarget {
    public func run(choices: ChoiceSource, keepTrace: Bool, costBudget: Int) -> RunVerdict {
        run(choices: choices, keepTrace: keepTrace)
    }

    public func shrinkInChild(_ recorded: ChoiceSequence, invariant: String, options: ShrinkOptions,
                              isCancelled: () -> Bool) -> ChildShrink? { nil }

    public var preferredBatchSize: Int { 1 }

    public func checking(only invariant: String) -> any CampaignTarget { self }

    public func run(seeds: [Seed]) -> [RunVerdict] {
        seeds.map { run(choices: ChoiceSource(seed: $0), keepTrace: false) }
    }

    public func run(batch sources: [ChoiceSource]) -> [RunVerdict] {
        sources.map { run(choices: $0, keepTrace: false) }
    }
}

/// One event of a run's trace, in the domain-free form reports print.
///
/// ```swift
/// TraceLine(time: .zero, name: "beginTask", fields: [TraceField("taskID", .int(1))], thread: "main")
/// ```
public struct TraceLine: Sendable, Equatable {
    /// When the event happened.
    public var time: VirtualTime
    /// The event's name, e.g. `"beginTask"`.
    public var name: String
    /// The event's fields, in order.
    public var fields: [TraceField]
    /// The simulated thread it happened on (``TraceEntry/thread``), if any.
    public var thread: String?

    public init(time: VirtualTime, name: String, fields: [TraceField], thread: String? = nil) {
        self.time = time
        self.name = name
        self.fields = fields
        self.thread = thread
    }
}

/// How one run went: its digest and size, its failures, and optionally its trace and coverage.
///
/// Contract: `failures` are in the order they were seen; an empty list means the run passed.
/// `trace` is empty unless the run was asked to keep it.
public struct RunVerdict: Sendable {
    /// The timing-free digest of the run's trace.
    public var digest: TraceDigest
    /// The number of trace events.
    public var eventCount: Int
    /// The virtual time the run ended at.
    public var simulatedTime: VirtualTime
    /// The invariant violations, in the order they were seen.
    public var failures: [Violation]
    /// The trace, when kept.
    public var trace: [TraceLine]
    /// What the run exercised.
    public var coverage: Coverage
    /// Why the run stopped.
    public var stop: RunStop
    /// What the run cost in the target's own units (the simulator: scheduler steps); defaults to
    /// ``eventCount``. Budgets passed to ``CampaignTarget/run(choices:keepTrace:costBudget:)``
    /// are in these units.
    public var cost: Int
    /// Whether the run was cut short by a cost budget (its verdict is then incomplete).
    public var overBudget: Bool

    public init(digest: TraceDigest, eventCount: Int, simulatedTime: VirtualTime, failures: [Violation],
                trace: [TraceLine] = [], coverage: Coverage = Coverage(), stop: RunStop = .quiescent,
                cost: Int? = nil, overBudget: Bool = false) {
        self.cost = cost ?? eventCount
        self.overBudget = overBudget
        self.digest = digest
        self.eventCount = eventCount
        self.simulatedTime = simulatedTime
        self.failures = failures
        self.trace = trace
        self.coverage = coverage
        self.stop = stop
    }

    /// Whether the run held every invariant.
    public var passed: Bool { failures.isEmpty }
}
