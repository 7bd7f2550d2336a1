/// What a worker learned from the runs it ran, in a form that merges into the same totals
/// whichever worker ran which run: the ``RunTotals``, coverage ranks, the verdicts of runs that
/// were first to violate an invariant (for the follow-up), and the determinism samples' digests.
struct RunTally: Sendable {
    var totals = RunTotals()
    var coverage = CoverageTally()
    /// The verdicts of runs that were, when counted, some invariant's first violating run.
    var firstVerdicts: [Int: RunVerdict] = [:]
    /// Digests of the determinism-sample runs, by run index.
    var sampleDigests: [Int: TraceDigest] = [:]

    mutating func add(_ verdict: RunVerdict, runIndex: Int, isSample: Bool) {
        totals.add(verdict, runIndex: runIndex)
        coverage.add(verdict.coverage, runIndex: runIndex)
        if isSample { sampleDigests[runIndex] = verdict.digest }
        if !verdict.passed, totals.violations.contains(where: { $0.firstRun == runIndex }) {
            firstVerdicts[runIndex] = verdict
        }
    }

    mutating func merge(_ other: RunTally) {
        totals.merge(other.totals)
        coverage.merge(other.coverage)
        // Run indices are disjoint between workers, so either side's entry is the same.
        firstVerdicts.merge(other.firstVerdicts) { first, _ in first }
        sampleDigests.merge(other.sampleDigests) { first, _ in first }
    }

    /// Each violated invariant, in order of first appearance, with its first run's verdict.
    var firstViolations: [(entry: InvariantViolations, verdict: RunVerdict)] {
        totals.violations.map { ($0, firstVerdicts[$0.firstRun]!) }
    }
}
