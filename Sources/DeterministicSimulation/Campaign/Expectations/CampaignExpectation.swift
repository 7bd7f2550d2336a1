/// What a campaign must show to meet its scenario's expectation: every invariant held (`pass`),
/// or one invariant violated at least once (a planted bug, found as expected).
///
/// ```swift
/// let expectation = CampaignExpectation.violation("no-double-end")
/// let verdict = expectation.verdict(for: result, invariants: ["every-begin-ended", "no-double-end"])
/// verdict.outcome          // .met when some run violated no-double-end
/// expectation.testCaseName // "expect violation no-double-end" (the JUnit test case)
/// ```
///
/// Contract: an expected violation is a finding, not a failure: the gate (`bgsim check`) and
/// `bgsim fuzz` both judge a campaign by its expectation, with this one type, so their exit codes,
/// summaries and JUnit files agree. Other invariants a planted bug happens to violate besides the
/// expected one do not decide the verdict (the workload is buggy by design); they are listed.
public enum CampaignExpectation: Sendable, Equatable, CustomStringConvertible {
    /// No invariant may be violated.
    case pass
    /// The planted bug must be found: this invariant violated in at least one run.
    case violation(String)

    /// `pass` or `violation <id>`, as the scenario file says it.
    public var description: String {
        switch self {
        case .pass: "pass"
        case .violation(let id): "violation \(id)"
        }
    }

    /// Reads ``description``'s form back (`pass`, `violation <id>`), as reports carry it.
    ///
    /// ```swift
    /// CampaignExpectation(text: "violation no-double-end")   // .violation("no-double-end")
    /// ```
    public init?(text: String) {
        if text == "pass" {
            self = .pass
        } else if text.hasPrefix("violation "), text.count > 10 {
            self = .violation(String(text.dropFirst(10)))
        } else {
            return nil
        }
    }

    /// The JUnit test case that stands for the scenario: `expect pass`, `expect violation <id>`.
    package var testCaseName: String { "expect \(description)" }

    /// The expected invariant, for a planted bug.
    package var expectedInvariant: String? {
        if case .violation(let id) = self { return id }
        return nil
    }

    /// Judges a campaign's result.
    ///
    /// - Parameters:
    ///   - result: the campaign (or one shard of it).
    ///   - invariants: the invariants the scenario checks, in its order (what "held" lists).
    /// - Returns: ``ExpectationVerdict/Outcome/met`` or `missed`; for a shard (`--shard K/N`
    ///   with N > 1) that did not find an expected violation, `undecided`: another shard may find
    ///   it, and `bgsim merge` judges the whole campaign. An interrupted campaign that has not
    ///   shown its expectation yet is `missed`.
    ///   - savedFailures: the invariants of saved failures (the failure database) that still fail
    ///     when replayed: findings as much as the campaign's own.
    ///   - requiredProbes: probes the campaign must hit (the scenario's `requiredProbes`): one that
    ///     the result's coverage never counted makes the verdict `missed` (`undecided` for a
    ///     shard), whatever was found: the exploration did not reach the code under test.
    public func verdict(for result: CampaignResult, invariants: [String],
                        savedFailures: [String] = [], requiredProbes: [String] = []) -> ExpectationVerdict {
        let sharded = result.options.shard.count > 1
        var verdict = verdict(violations: result.totals.violations.map { ($0.invariant, $0.runs) },
                              runs: result.totals.runs, invariants: invariants, sharded: sharded,
                              savedFailures: savedFailures)
        let hit = result.coverage.probes.filter { $0.count > 0 }.map(\.name)
        verdict.missingProbes = requiredProbes.filter { !hit.contains($0) }
        // Independent random runs only: an exhaustive search's sequences are not a sample.
        if result.exhaustive == nil { verdict.bound = DetectionBound(runs: result.totals.runs) }
        if !verdict.missingProbes.isEmpty, verdict.outcome == .met { verdict.outcome = sharded ? .undecided : .missed }
        return verdict
    }

    /// Judges violation counts (`merge` judges a merged report this way).
    ///
    /// ```swift
    /// CampaignExpectation.pass.verdict(violations: [], runs: 100, invariants: ["no-double-end"]).outcome  // .met
    /// ```
    public func verdict(violations: [(invariant: String, runs: Int)], runs: Int, invariants: [String],
                        sharded: Bool = false, savedFailures: [String] = []) -> ExpectationVerdict {
        var found = violations.map { ExpectationVerdict.Finding(invariant: $0.invariant, runs: $0.runs) }
        for invariant in savedFailures where !found.contains(where: { $0.invariant == invariant }) {
            found.append(ExpectationVerdict.Finding(invariant: invariant, runs: 0, savedFailure: true))
        }
        let held = invariants.filter { id in !found.contains { $0.invariant == id } }
        let outcome: ExpectationVerdict.Outcome
        switch self {
        case .pass:
            outcome = found.isEmpty ? .met : .missed
        case .violation(let id):
            if found.contains(where: { $0.invariant == id }) {
                outcome = .met
            } else {
                outcome = sharded ? .undecided : .missed
            }
        }
        return ExpectationVerdict(expectation: self, outcome: outcome, runs: runs, found: found, held: held)
    }
}
