/// A campaign judged by its scenario's expectation: the one verdict that the `fuzz` and `check`
/// summaries, their exit codes, the JUnit file and `merge` all read.
///
/// ```swift
/// let verdict = CampaignExpectation.violation("no-double-end").verdict(for: result, invariants: ids)
/// print(verdict.headline)  // "found no-double-end as expected (19 of 20 runs)"
/// // a pass: "every invariant held in 300 runs, as expected; rules out, at 95% confidence, any
/// // failure that shows in at least 1 run in 100" (``DetectionBound``)
/// print(verdict.heldText)  // "held: every-begin-ended, expiry-ends-task, ..."
/// ```
///
/// Contract: ``outcome`` is `met` exactly when the expectation was shown (pass: no violation;
/// violation: the expected invariant violated in some run); ``headline`` is one line that says
/// what was found as expected, what was violated against the expectation, or what was not found.
public struct ExpectationVerdict: Sendable, Equatable {
    /// How a campaign stands against its expectation.
    public enum Outcome: String, Sendable, Equatable {
        /// The expectation was shown: the gate passes for this scenario.
        case met
        /// It was not: a correct workload violated an invariant, or a planted bug was not found.
        case missed
        /// One shard did not find the expected violation; the merged campaign decides.
        case undecided
    }

    /// One invariant some runs violated, or (with no run of this campaign) a saved failure that
    /// still fails when replayed.
    public struct Finding: Sendable, Equatable {
        public var invariant: String
        public var runs: Int
        /// Found only by replaying a saved failure.
        package var savedFailure = false

        /// `no-double-end in 19 of 300 runs`, or `no-double-end in a saved failure`.
        func text(of total: Int) -> String {
            savedFailure ? "\(invariant) in a saved failure" : "\(invariant) in \(DetectionBound.count(runs, of: total))"
        }
    }

    public var expectation: CampaignExpectation
    public var outcome: Outcome
    /// Runs judged.
    public var runs: Int
    /// Every violated invariant with its run count, in order of first appearance.
    public var found: [Finding]
    /// The scenario's invariants no run violated.
    public var held: [String]
    /// What the runs rule out when none failed (nil for an exhaustive search and a merged
    /// report): a passing headline says it.
    public var bound: DetectionBound?
    /// Required probes no run hit (`requiredProbes`): with any, the expectation is not met.
    public var missingProbes: [String] = []

    /// Whether this scenario fails the gate (``Outcome/missed``).
    public var isMissed: Bool { outcome == .missed }

    /// One line: what was found (as expected or not) and what was not.
    public var headline: String {
        guard missingProbes.isEmpty else {
            let names = missingProbes.joined(separator: ", ")
            return "required \(missingProbes.count == 1 ? "probe" : "probes") \(names) never hit in \(runs) runs: "
                + "the campaign did not reach the code it tests (raise the runs, or widen the environment); "
                + findingsHeadline
        }
        return findingsHeadline
    }

    /// ``headline`` without the probes: what the findings alone say.
    private var findingsHeadline: String {
        switch expectation {
        case .pass:
            guard found.isEmpty else { return "expected no violation, but found " + list(found) }
            let ruledOut = bound?.text.map { "; " + $0 } ?? ""
            return "every invariant held in \(runs) runs, as expected\(ruledOut)"
        case .violation(let id):
            if let entry = found.first(where: { $0.invariant == id }) {
                let others = found.filter { $0.invariant != id }
                let also = others.isEmpty ? "" : "; also violated: " + list(others)
                let count = entry.savedFailure ? "in a saved failure" : DetectionBound.count(entry.runs, of: runs)
                return "found \(id) as expected (\(count))\(also)"
            }
            if outcome == .undecided {
                return "\(id) not found in this shard's \(runs) runs; merge the shards to judge the campaign"
            }
            let other = found.isEmpty ? "" : " (violated instead: " + list(found) + ")"
            return "the planted bug was not found: no \(id) violation in \(runs) runs\(other)"
        }
    }

    /// `held: a, b, c`, or `held: none` when every invariant was violated.
    public var heldText: String { "held: " + (held.isEmpty ? "none" : held.joined(separator: ", ")) }

    func list(_ findings: [Finding]) -> String {
        findings.map { $0.text(of: runs) }.joined(separator: ", ")
    }
}
