import DeterministicSimulation

/// The CI gate over scenarios: each scenario's campaign through ``ScenarioCampaign``, in order,
/// judged by its expectation (a correct workload must hold every invariant, a planted bug must
/// be found), with the tally, its summary line and the JUnit XML. `bgsim check` and `bgsim fuzz`
/// gate with it and only print; a test can call it on the same scenario files.
///
/// ```swift
/// let scenarios = try ScenarioLoader.load(paths: ["Scenarios"])
/// let gate = try ScenarioGate.run(scenarios) { ScenarioPlan(for: $0, jobs: 4) }
/// print(gate.summaryLine)   // "187 of 187 scenarios met their expectation (56 planted bugs found as expected, 131 held …)"
/// gate.passed               // true: every expectation met, every run replayed, nothing interrupted
/// let xml = gate.junitXML(toolName: "my-tests") { $0.swiftCall }
/// ```
///
/// Contract: the scenarios run in the given order and the gate stops after the first
/// interrupted campaign (``ScenarioPlan/isCancelled``); each scenario's outcome is what
/// ``ScenarioCampaign/run(_:plan:)`` gives for it, so the gate is deterministic as a campaign is.
/// ``passed`` is false exactly when `bgsim check` would exit non-zero for these outcomes: a
/// missed expectation, a run that did not replay (nondeterminism), an internal error while
/// shrinking, or an interruption.
public struct ScenarioGate: Sendable {
    /// Every scenario's outcome, in the order they ran.
    public private(set) var outcomes: [ScenarioOutcome] = []
    /// Scenarios that met their expectation.
    public private(set) var met = 0
    /// Of those, planted bugs found as expected, and correct workloads that held every invariant.
    public private(set) var plantedFound = 0
    public private(set) var held = 0
    /// Scenarios one shard cannot decide (a planted bug not found in this slice of the runs).
    public private(set) var undecided = 0
    /// Scenarios that missed their expectation, with the verdict's headline.
    public private(set) var missed: [(scenario: String, headline: String)] = []
    /// Saved failures replayed before the campaigns, and how many still failed.
    public private(set) var savedReplayed = 0
    public private(set) var savedStillFailing = 0

    public init() {}

    /// Runs every scenario's campaign with the plan `plan` makes for it, stopping after an
    /// interrupted one.
    ///
    /// - Throws: ``FailureStoreError`` when a plan's failure store cannot be read or written.
    public static func run(_ scenarios: [Scenario], plan: (Scenario) -> ScenarioPlan) throws(FailureStoreError)
        -> ScenarioGate {
        var gate = ScenarioGate()
        for scenario in scenarios {
            let outcome = try gate.run(scenario, plan: plan(scenario))
            if outcome.result.stop == .interrupted { break }
        }
        return gate
    }

    /// Runs one scenario's campaign and adds its outcome.
    public mutating func run(_ scenario: Scenario, plan: ScenarioPlan) throws(FailureStoreError) -> ScenarioOutcome {
        let outcome = try ScenarioCampaign.run(scenario, plan: plan)
        add(outcome)
        return outcome
    }

    /// Adds an outcome a campaign gave elsewhere.
    public mutating func add(_ outcome: ScenarioOutcome) {
        outcomes.append(outcome)
        savedReplayed += outcome.saved.replayed
        savedStillFailing += outcome.saved.stillFailing.count
        switch outcome.verdict.outcome {
        case .met:
            met += 1
            if outcome.verdict.expectation == .pass { held += 1 } else { plantedFound += 1 }
        case .undecided:
            undecided += 1
        case .missed:
            missed.append((outcome.scenario.name, outcome.verdict.headline))
        }
    }

    /// Some scenario missed its expectation.
    public var failed: Bool { !missed.isEmpty }
    /// Some run did not replay to the same trace.
    public var hasNondeterminism: Bool { outcomes.contains { !$0.result.nondeterminism.isEmpty } }
    /// Some failure stands unshrunk because shrinking hit an internal error of the harness.
    public var hasInternalErrors: Bool { outcomes.contains { !$0.result.internalErrors.isEmpty } }
    /// The last campaign was interrupted (the outcomes cover what finished).
    public var wasInterrupted: Bool { outcomes.last?.result.stop == .interrupted }
    /// Every expectation met (or undecided in this shard), every run replayed, nothing interrupted.
    public var passed: Bool { !failed && !hasNondeterminism && !hasInternalErrors && !wasInterrupted }

    /// `N of M scenarios met their expectation (P planted bugs found as expected, H held every
    /// invariant[, U undecided in this shard])[; missed: a, b][; replayed S saved failures: F still fail]`.
    public var summaryLine: String {
        let total = outcomes.count
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

    /// The scenarios that missed their expectation in one line (at most three by name, then a
    /// count), or nil when none did.
    ///
    /// ```swift
    /// gate.missedLine   // "1 of 12 scenarios did not meet its expectation (p1: did not find every-begin-ended …)"
    /// ```
    public var missedLine: String? {
        guard failed else { return nil }
        let total = outcomes.count
        let shown = missed.prefix(3).map { "\($0.scenario): \($0.headline)" }.joined(separator: "; ")
        let more = missed.count > 3 ? "; and \(missed.count - 3) more" : ""
        return "\(missed.count) of \(total) \(total == 1 ? "scenario" : "scenarios") did not meet "
            + "\(missed.count == 1 ? "its" : "their") expectation (\(shown)\(more))"
    }

    /// JUnit XML over the outcomes (``JUnitReport``): one test suite per scenario, its test case
    /// named after the expectation, passing exactly when it was met; each violation with its
    /// replay in `replayCommand`'s words (a `bgsim replay` command, or ``ReplayRecipe/swiftCall``).
    ///
    /// - Parameters:
    ///   - toolName: the `<testsuites>` name, the front end that ran them.
    ///   - savedFailuresDroppedBy: who drops a fixed saved failure a read-only gate kept
    ///     (``SavedFailureReplay/summary(droppedBy:)``).
    public func junitXML(toolName: String, savedFailuresDroppedBy: String = "a campaign that saves failures",
                         replayCommand: (ReplayRecipe) -> String) -> String {
        withoutActuallyEscaping(replayCommand) { replay in
            JUnitReport.xml(outcomes.map { outcome in
                let scenario = outcome.scenario
                var entry = JUnitReport.Entry(
                    scenario: scenario.name, expectation: scenario.expectation, invariants: scenario.invariants.map(\.id),
                    result: outcome.result,
                    replayCommand: { replay(.original(of: $0, in: scenario)) },
                    shrunkReplayCommand: { replay(.shrunk(of: $0, in: scenario)) },
                    notes: outcome.saved.replayed > 0 ? [outcome.saved.summary(droppedBy: savedFailuresDroppedBy)] : [])
                entry.requiredProbes = scenario.requiredProbes
                return entry
            }, toolName: toolName)
        }
    }
}
