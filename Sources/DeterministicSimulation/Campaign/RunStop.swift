/// Why a run stopped: the one closed list that verdicts, totals, reports and summaries share.
///
/// ```swift
/// RunVerdict(digest: digest, eventCount: 120, simulatedTime: .seconds(600), failures: [],
///            stop: scheduler.stepsRun >= maxSteps ? .stepLimit : .quiescent)
/// ```
///
/// Contract: raw values are the spellings traces and `bgsim replay` print (`quiescent`,
/// `settleLimit`, `stepLimit`, and for isolated runs `crashed`, `timedOut`); they never change. ``hitLimit`` decides what reports count as
/// `stepLimitRuns`. Adding a case is one edit here: ``StopCounts`` counts every case.
public enum RunStop: String, Sendable, Equatable, CaseIterable {
    /// Nothing was left to run after the horizon.
    case quiescent
    /// The settle phase reached its limit with work still scheduled.
    case settleLimit
    /// The step cap was reached: the workload keeps scheduling work forever.
    case stepLimit
    /// The run's process died of a fatal signal (an isolated run: ``IsolatedTarget``).
    case crashed
    /// The run's process was killed after the wall-clock run timeout (an isolated run).
    case timedOut

    /// Whether the run was cut short by a limit rather than running out of work.
    public var hitLimit: Bool {
        switch self {
        case .quiescent, .crashed, .timedOut: false
        case .settleLimit, .stepLimit: true
        }
    }
}

/// How many runs stopped for each ``RunStop``.
///
/// ```swift
/// var stops = StopCounts()
/// stops.add(.stepLimit)
/// stops[.stepLimit]   // 1
/// stops.hitLimit      // 1
/// ```
///
/// Contract: one counter per case of ``RunStop`` in declaration order; ``merge(_:)`` adds
/// counter by counter.
public struct StopCounts: Sendable, Equatable {
    private var counts = [Int](repeating: 0, count: RunStop.allCases.count)

    /// No runs.
    public init() {}

    /// Runs that stopped for `stop`.
    public subscript(stop: RunStop) -> Int { counts[Self.slot(stop)] }

    /// Runs that stopped at a limit (``RunStop/hitLimit``): reports' `stepLimitRuns`.
    public var hitLimit: Int {
        zip(RunStop.allCases, counts).reduce(0) { $0 + ($1.0.hitLimit ? $1.1 : 0) }
    }

    /// Counts `count` more runs that stopped for `stop`.
    public mutating func add(_ stop: RunStop, count: Int = 1) { counts[Self.slot(stop)] += count }

    /// Adds every counter of `other`.
    public mutating func merge(_ other: StopCounts) {
        for slot in counts.indices { counts[slot] += other.counts[slot] }
    }

    private static func slot(_ stop: RunStop) -> Int { RunStop.allCases.firstIndex(of: stop)! }
}
