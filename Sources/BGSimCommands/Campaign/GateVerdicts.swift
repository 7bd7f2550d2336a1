import BackgroundTaskSimulator
import DeterministicSimulation

extension Summary {
    /// A violated invariant as the summary lists it: `FOUND` for the violation a planted-bug
    /// scenario expects, `ALSO` for the others its buggy workload shows, `VIOLATION` for a
    /// scenario that expects every invariant to hold.
    ///
    /// ```swift
    /// violationLine(entry, scenario, runs: 20)   // "  FOUND no-double-end in 19 of 20 runs, as expected (the planted bug)"
    /// ```
    static func violationLine(_ entry: InvariantViolations, _ scenario: Scenario, runs: Int) -> String {
        let count = DetectionBound.count(entry.runs, of: runs)
        switch scenario.expectation {
        case .pass:
            return "  VIOLATION \(entry.invariant) in \(count)"
        case .violation(let id) where id == entry.invariant:
            return "  FOUND \(entry.invariant) in \(count), as expected (the planted bug)"
        case .violation:
            return "  ALSO \(entry.invariant) in \(count)"
        }
    }

    /// The scenario's verdict: whether the campaign met its expectation, and what held.
    ///
    /// ```swift
    /// Summary.printVerdict(verdict, io: io)
    /// //   expectation met (expect violation no-double-end): found no-double-end as expected (19 of 20 runs)
    /// //   held: every-begin-ended, expiry-ends-task, ...
    /// ```
    static func printVerdict(_ verdict: ExpectationVerdict, io: CommandIO) {
        let label = switch verdict.outcome {
        case .met: "expectation met"
        case .missed: "EXPECTATION NOT MET"
        case .undecided: "expectation undecided"
        }
        io.out("  \(label) (expect \(verdict.expectation)): \(verdict.headline)")
        io.out("  \(verdict.heldText)")
    }
}
