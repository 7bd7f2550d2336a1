/// What a worker learned from the runs it ran, in a form that merges into the same totals
/// whichever worker ran which run: sums, minimums by run index, and coverage ranks.
struct RunTally: Sendable {
    /// The first run that violated one invariant, and how many runs did.
    struct Violation: Sendable {
        var runs: Int
        /// The first violating run and the violation's position among that run's failures.
        var firstRun: Int
        var position: Int
        var failure: RunFailure
        var digest: TraceDigest
        var eventCount: Int
    }

    var runs = 0
    var passed = 0
    var failed = 0
    var events = 0
    var simulatedMicroseconds: Int64 = 0
    var stepLimitRuns = 0
    var digest = DigestCombiner()
    var violations: [String: Violation] = [:]
    var coverage = CoverageTally()
    /// Digests of the determinism-sample runs, by run index.
    var sampleDigests: [Int: TraceDigest] = [:]

    mutating func add(_ verdict: RunVerdict, runIndex: Int, isSample: Bool) {
        runs += 1
        if verdict.passed { passed += 1 } else { failed += 1 }
        events += verdict.eventCount
        simulatedMicroseconds += verdict.simulatedTime.microseconds
        if verdict.stop != "quiescent" { stepLimitRuns += 1 }
        digest.add(verdict.digest, runIndex: UInt64(runIndex))
        coverage.add(verdict.coverage, runIndex: runIndex)
        if isSample { sampleDigests[runIndex] = verdict.digest }
        var seen: [String] = []
        for (position, failure) in verdict.failures.enumerated() where !seen.contains(failure.invariant) {
            seen.append(failure.invariant)
            merge(failure.invariant, Violation(runs: 1, firstRun: runIndex, position: position, failure: failure,
                                               digest: verdict.digest, eventCount: verdict.eventCount))
        }
    }

    mutating func merge(_ other: RunTally) {
        runs += other.runs
        passed += other.passed
        failed += other.failed
        events += other.events
        simulatedMicroseconds += other.simulatedMicroseconds
        stepLimitRuns += other.stepLimitRuns
        digest.merge(other.digest)
        coverage.merge(other.coverage)
        sampleDigests.merge(other.sampleDigests) { first, _ in first }
        // Hash order is harmless here: merging sums counts and keeps the minimum run index.
        for (invariant, violation) in other.violations { merge(invariant, violation) }
    }

    private mutating func merge(_ invariant: String, _ violation: Violation) {
        guard var existing = violations[invariant] else {
            violations[invariant] = violation
            return
        }
        let runs = existing.runs + violation.runs
        if (violation.firstRun, violation.position) < (existing.firstRun, existing.position) { existing = violation }
        existing.runs = runs
        violations[invariant] = existing
    }

    /// The violations in order of first appearance: run index, then position within the run.
    var orderedViolations: [(invariant: String, violation: Violation)] {
        violations.map { (invariant: $0.key, violation: $0.value) }
            .sorted { ($0.violation.firstRun, $0.violation.position) < ($1.violation.firstRun, $1.violation.position) }
    }
}
