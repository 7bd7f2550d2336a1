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

/// The verdicts of one `fuzz` or `check` command over its scenarios: the closing summary line and
/// the one stderr line of a missed expectation.
///
/// ```swift
/// var gate = GateTally()
/// gate.add(verdict, scenario: scenario.name)
/// io.out(gate.summaryLine)   // "76 of 77 scenarios met their expectation (15 planted bugs found ...)"
/// ```
///
/// Contract: ``failed`` is true exactly when some scenario missed its expectation (exit 1);
/// ``errorLine`` then names them (at most three, then a count).
struct GateTally {
    private(set) var total = 0
    private(set) var met = 0
    private(set) var plantedFound = 0
    private(set) var held = 0
    private(set) var undecided = 0
    private(set) var missed: [(scenario: String, headline: String)] = []
    /// Saved failures replayed from the failure database, and how many still failed.
    private(set) var savedReplayed = 0
    private(set) var savedStillFailing = 0

    var failed: Bool { !missed.isEmpty }

    mutating func add(_ replay: SavedFailureReplay) {
        savedReplayed += replay.replayed
        savedStillFailing += replay.stillFailing.count
    }

    mutating func add(_ verdict: ExpectationVerdict, scenario: String) {
        total += 1
        switch verdict.outcome {
        case .met:
            met += 1
            if verdict.expectation == .pass { held += 1 } else { plantedFound += 1 }
        case .undecided:
            undecided += 1
        case .missed:
            missed.append((scenario, verdict.headline))
        }
    }

    /// `N of M scenarios met their expectation (P planted bugs found as expected, H held every
    /// invariant[, U undecided in this shard])[; missed: a, b]`.
    var summaryLine: String {
        var parts = ["\(plantedFound) planted \(plantedFound == 1 ? "bug" : "bugs") found as expected",
                     "\(held) held every invariant"]
        if undecided > 0 { parts.append("\(undecided) undecided in this shard (merge the shards' reports)") }
        let names = missed.isEmpty ? "" : "; missed: " + missed.map(\.scenario).joined(separator: ", ")
        let saved = savedReplayed == 0 ? "" : "; replayed \(savedReplayed) saved "
            + "\(savedReplayed == 1 ? "failure" : "failures"): \(savedStillFailing) still "
            + (savedStillFailing == 1 ? "fails" : "fail")
        return "\(met) of \(total) \(total == 1 ? "scenario" : "scenarios") met \(total == 1 ? "its" : "their") "
            + "expectation (\(parts.joined(separator: ", ")))\(names)\(saved)"
    }

    /// The stderr line of exit 3.
    static let nondeterminismLine = "a run did not replay to the same trace (NONDETERMINISM above); make the "
        + "workload use only what its WorkloadContext gives it (no real time, threads or global state)"

    /// The stderr line when shrinking hit an internal error of bgsim (exit 71).
    static let internalErrorLine = "an internal error of bgsim while shrinking (INTERNAL ERROR above): the failures "
        + "it hit stand unshrunk and their replay commands reproduce them; please report it with those commands"

    /// The stderr line when a scenario missed its expectation (exit 1).
    var errorLine: String {
        let shown = missed.prefix(3).map { "\($0.scenario): \($0.headline)" }.joined(separator: "; ")
        let more = missed.count > 3 ? "; and \(missed.count - 3) more" : ""
        return "\(missed.count) of \(total) \(total == 1 ? "scenario" : "scenarios") did not meet "
            + "\(missed.count == 1 ? "its" : "their") expectation (\(shown)\(more)); "
            + "the summary above prints each violation's replay command"
    }
}

/// JUnit XML over the scenarios of one command: one test case per scenario, named after its
/// expectation (``JUnitReport``).
enum JUnitXML {
    static func render(_ suites: [(scenario: Scenario, result: CampaignResult, notes: [String])],
                       invocation: String) -> String {
        let replay = ReplayCommandText(invocation)
        return JUnitReport.xml(suites.map { entry in
            var junit = JUnitReport.Entry(
                scenario: entry.scenario.name, expectation: entry.scenario.expectation,
                invariants: entry.scenario.invariants.map(\.id), result: entry.result,
                replayCommand: { replay.failure(entry.scenario, $0) },
                shrunkReplayCommand: { replay.shrunk(entry.scenario, $0) },
                notes: entry.notes)
            junit.requiredProbes = entry.scenario.requiredProbes
            return junit
        }, toolName: "bgsim")
    }
}
