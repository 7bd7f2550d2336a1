/// What a set of runs added up to: the one totals type that the campaign tally, the result,
/// the JSON report, `merge`, JUnit and the command-line summary all read and write.
///
/// ```swift
/// var totals = RunTotals()
/// totals.add(verdict, runIndex: 0)
/// totals.merge(otherWorkersTotals)
/// print(totals.runs, totals.failed, totals.stops.hitLimit, totals.digest.digest)
/// ```
///
/// Contract: ``add(_:runIndex:)`` and ``merge(_:)`` give the same totals whichever order runs
/// are added or merged in (sums, and per invariant the earliest run); ``violations`` is always
/// ordered by first run, then by the violation's position in that run.
public struct RunTotals: Sendable, Equatable {
    /// Runs counted.
    public var runs = 0
    /// Runs that held every invariant.
    public var passed = 0
    /// Runs that violated at least one invariant.
    public var failed = 0
    /// Trace events over all runs.
    public var events = 0
    /// Virtual time over all runs, in microseconds (exact; ``simulatedSeconds`` is derived).
    package var simulatedMicroseconds: Int64 = 0
    /// How many runs stopped for each reason.
    public var stops = StopCounts()
    /// Per violated invariant: how many runs violated it and the first that did, in order of
    /// first appearance.
    public private(set) var violations: [InvariantViolations] = []
    /// The campaign digest over the runs' trace digests, by run index.
    public var digest = DigestCombiner()

    /// No runs.
    public init() {}

    /// Virtual seconds over all runs.
    public var simulatedSeconds: Double { Double(simulatedMicroseconds) / 1_000_000 }

    /// The entry of `invariant`, or `nil` if no run violated it.
    public func violations(of invariant: String) -> InvariantViolations? {
        violations.first { $0.invariant == invariant }
    }

    /// Counts run `runIndex`.
    public mutating func add(_ verdict: RunVerdict, runIndex: Int) {
        runs += 1
        if verdict.passed { passed += 1 } else { failed += 1 }
        events += verdict.eventCount
        simulatedMicroseconds += verdict.simulatedTime.microseconds
        stops.add(verdict.stop)
        digest.add(verdict.digest, runIndex: UInt64(runIndex))
        for (position, failure) in verdict.failures.enumerated()
        where !verdict.failures[..<position].contains(where: { $0.invariant == failure.invariant }) {
            add(InvariantViolations(invariant: failure.invariant, runs: 1, firstRun: runIndex, position: position))
        }
    }

    /// Adds the runs of `other` (runs disjoint from these).
    public mutating func merge(_ other: RunTotals) {
        runs += other.runs
        passed += other.passed
        failed += other.failed
        events += other.events
        simulatedMicroseconds += other.simulatedMicroseconds
        stops.merge(other.stops)
        digest.merge(other.digest)
        for entry in other.violations { add(entry) }
    }

    /// Adds one invariant's violations: counts add up, the earlier first run wins.
    mutating func add(_ entry: InvariantViolations) {
        guard let at = violations.firstIndex(where: { $0.invariant == entry.invariant }) else {
            violations.append(entry)
            violations.sort { $0.precedes($1) }
            return
        }
        let runs = violations[at].runs + entry.runs
        if entry.precedes(violations[at]) { violations[at] = entry }
        violations[at].runs = runs
        violations.sort { $0.precedes($1) }
    }
}

/// How many runs violated one invariant, and the first that did.
///
/// ```swift
/// if let entry = result.totals.violations(of: "no-double-end") {
///     print("\(entry.runs) runs, first at run \(entry.firstRun)")
/// }
/// ```
public struct InvariantViolations: Sendable, Equatable {
    /// The invariant's stable id.
    public var invariant: String
    /// How many runs violated it.
    public var runs: Int
    /// The index of the first run that violated it.
    package var firstRun: Int
    /// Where the violation stood among the first run's violations (orders invariants first
    /// violated in the same run). Totals read from a report use the report's order instead.
    var position: Int

    init(invariant: String, runs: Int, firstRun: Int, position: Int) {
        self.invariant = invariant
        self.runs = runs
        self.firstRun = firstRun
        self.position = position
    }

    func precedes(_ other: InvariantViolations) -> Bool {
        (firstRun, position) < (other.firstRun, other.position)
    }
}

extension RunTotals {
    /// Rewrites each invariant's first run index (a search numbers its runs per segment while
    /// it runs, and in one sequence when it is done).
    mutating func renumberFirstRuns(_ renumber: (Int) -> Int) {
        violations = violations.map { entry in
            var entry = entry
            entry.firstRun = renumber(entry.firstRun)
            return entry
        }
    }
}
