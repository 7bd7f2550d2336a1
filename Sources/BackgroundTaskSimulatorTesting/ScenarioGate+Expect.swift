public import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
public import Testing

extension ScenarioGate {
    /// Runs scenario files as `bgsim check` does, inside a Swift Testing test, and records one
    /// issue per scenario that missed its expectation at your call's line.
    ///
    /// ```swift
    /// @Test func scenariosMeetTheirExpectations() async {
    ///     await ScenarioGate.expectExpectationsMet(in: ["Scenarios"], workloads: MyApp.workloads, jobs: 4)
    /// }
    /// ```
    /// A missed expectation reads:
    /// ```
    /// draft-upload (Scenarios/draft-upload.json), expect pass: every-begin-ended violated in 3 of 300 runs …
    ///     every-begin-ended: the task begun at 1.2s was never ended …
    ///     replay: try ScenarioLoader.load(file: "Scenarios/draft-upload.json").replay(choices: "c1.AAAAAQ…")
    /// ```
    ///
    /// Contract: the scenarios, their campaigns and verdicts are `bgsim check`'s (each with its
    /// own runs and seed, through ``ScenarioGate``); the failure database is only read, as
    /// `check` reads it. The runs happen in this process, but those of a scenario that expects
    /// `no-crash` or `no-hang` (its planted bug would end the test run, or never return) happen
    /// in child processes that re-run this test (as `WorkloadCampaign`'s `.testProcesses()`), or
    /// of your own tool when `isolation` names one (built with `BGSimCommands`: then every
    /// scenario runs there).
    /// One front-door campaign runs at a time per process (parallel tests wait their turn).
    /// A crash of workload code in this process prints the run and the Swift call that replays
    /// it, then ends the process with exit code 70, as a `WorkloadCampaign` does.
    /// Records one `Issue` per scenario that missed its expectation (its headline and up to three
    /// failures with their replay calls), per nondeterministic run, per failure left unshrunk by
    /// an internal error, and one for scenario files or a failure database that cannot be read.
    ///
    /// - Parameters:
    ///   - paths: scenario files and folders (a folder: every `*.json` in it, by name).
    ///   - isolation: the executable whose child processes run the campaigns (nil: in process).
    /// - Returns: the gate, for more checks of your own (nil when the scenarios did not load).
    @discardableResult
    public static func expectExpectationsMet(
        in paths: [String] = ["Scenarios"], workloads: WorkloadRegistry = .builtIn, jobs: Int = 1,
        failureDatabase: FailureDatabase = .standard, isolation executable: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ScenarioGate? {
        // Scenarios whose planted bug crashes or hangs run in children that re-run this test.
        var rerun: TestRerun?
        if executable == nil,
           let isolation = try? WorkloadCampaign.Isolation.testProcesses(
               fileID: sourceLocation.fileID, line: sourceLocation.line, column: sourceLocation.column),
           case .testProcesses(let test) = isolation.form {
            rerun = test
        }
        let checked = await CampaignTurns.shared.withTurn {
            GateFinding.check(paths, workloads: workloads, jobs: jobs, store: failureDatabase.store, executable: executable,
                              rerun: rerun)
        }
        for text in checked.findings { Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation) }
        return checked.gate
    }
}

/// What a scenario gate in a test records: one text per missed expectation, nondeterministic run,
/// unshrunk internal error, or input that could not be read. Swift Testing and XCTest present the
/// same texts.
enum GateFinding {
    /// Loads `paths` and runs the gate, in the caller's turn. With `rerun`, the scenarios that
    /// need isolation run in child processes that re-run the calling test; in such a child,
    /// this serves the one scenario it was started for and ends the process.
    static func check(_ paths: [String], workloads: WorkloadRegistry, jobs: Int, store: (any FailureStore)?,
                      executable: String?, rerun: TestRerun? = nil) -> (gate: ScenarioGate?, findings: [String]) {
        var scenarios: [Scenario]
        do {
            scenarios = try ScenarioLoader.load(named: paths, workloads: workloads)
        } catch {
            return (nil, ["the scenarios could not be loaded: \(error)"])
        }
        if let asked = TestRerun.asked {  // a child test process, started to serve one scenario
            if let rerun, let scenario = scenarios.first(where: { rerun.campaignKey($0) == asked.key }) {
                TestRerun.serve(scenario, strategy: asked.strategy)
            }
            return (nil, [])
        }
        // A planted crash or hang run in this process would end the test run, or never return:
        // without isolation such a scenario is not run, and says how to run it.
        let isolates = executable != nil || rerun != nil
        let unrunnable = isolates ? [] : scenarios.filter(\.needsIsolation)
        scenarios.removeAll { !isolates && $0.needsIsolation }
        let skipped = unrunnable.map { scenario in
            "\(scenario.name) (\(scenario.file)), expect \(scenario.expectation): not run: its planted bug crashes or "
                + "hangs, which in this process would end the test run (a Swift Testing test runs it in child test "
                + "processes); pass isolation: the path of your own tool built with BGSimCommands "
                + "(BGSim.main(workloads:)), whose child processes run it, or leave the file out"
        }
        do {
            // A crash of workload code in this process ends it, as any crash does, but first
            // prints the run and the Swift call that replays it (as WorkloadCampaign.run() does).
            CrashSignals.installIfNeeded(exitCode: 70, wording: wording)
            let gate = try ScenarioGate.run(scenarios) { scenario in
                var plan = ScenarioPlan(for: scenario, jobs: max(1, jobs))
                plan.failureStore = store
                plan.maintainsStore = false
                plan.toolVersion = "swift-api"
                plan.wording = wording
                plan.crashBanner = banner(for:)
                if let executable {
                    plan.isolation = .childProcesses(executable: executable)
                } else if let rerun, scenario.needsIsolation {
                    rerun.isolate(&plan)
                }
                return plan
            }
            return (gate, skipped + findings(in: gate))
        } catch {
            return (nil, skipped + ["the failure database could not be used: \(error)"])
        }
    }

    /// The words of the crash banner and hang watchdog of a gate in a test process.
    static let wording = CrashWording(
        program: "ScenarioGate", timeoutSetting: "the scenario's campaign.runTimeoutSeconds",
        hangAdvice: "; raise campaign.runTimeoutSeconds if one job of your code takes this long",
        crashTrailer: "ScenarioGate: the test process ends with exit code 70 (a crash in workload code); "
            + "replay the run with the call above to debug it\n")

    /// What a crash during one of `scenario`'s runs prints after the signal: the run, and the
    /// Swift call that replays it.
    @Sendable static func banner(for scenario: Scenario) -> CrashBanner {
        let placeholder = Seed(0).description
        let replay = ReplayRecipe(scenario: scenario, source: .seed(Seed(0))).swiftCall
        return CrashBanner(run: "run seed \(CrashBanner.seedPlaceholder) of scenario \(scenario.name) (\(scenario.file))",
                           replay: replay.replacingOccurrences(of: placeholder, with: CrashBanner.seedPlaceholder))
    }

    /// The texts of a gate's outcomes, in the order the scenarios ran.
    static func findings(in gate: ScenarioGate) -> [String] {
        gate.outcomes.flatMap { outcome in
            let (scenario, result) = (outcome.scenario, outcome.result)
            let name = "\(scenario.name) (\(scenario.file))"
            var texts: [String] = []
            if outcome.verdict.isMissed {
                var lines = ["\(name), expect \(scenario.expectation): \(outcome.verdict.headline)"]
                for example in outcome.examples() {
                    lines.append("    \(example.invariant)\(example.isSaved ? " (saved failure)" : ""): \(example.message)")
                    lines.append("    replay: \(example.shrunkReplay.swiftCall)")
                }
                texts.append(lines.joined(separator: "\n"))
            }
            for record in result.nondeterminism {
                texts.append("\(name): nondeterminism: run seed \(record.seed) gave \(record.actual), expected "
                    + "\(record.expected) (\(record.how)): usual causes: \(NondeterminismRecord.usualCauses)")
            }
            for failure in result.internalErrors {
                texts.append("\(name): an internal error of the harness while shrinking \(failure.failure.invariant) "
                    + "(not your code; the failure stands unshrunk): \(failure.shrinkFault?.message ?? ""); replay: "
                    + outcome.replay(of: failure).swiftCall)
            }
            return texts
        } + (gate.wasInterrupted ? ["the gate was interrupted; the outcomes cover the scenarios that finished"] : [])
    }
}
