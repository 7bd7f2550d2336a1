import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation

/// Runs one scenario's campaign for `fuzz` and `check` through the simulator's pipeline
/// (``ScenarioCampaign``): the command's flags become a ``ScenarioPlan`` (isolation, run
/// timeout, crash banners in bgsim's words, the failure database, progress on stderr only on a
/// terminal, interruption). The CLI builds no run plan of its own: phases, exhaustive search,
/// isolated targets and the watchdog are the engine's.
enum CampaignExecution {
    /// Runs `scenario`'s campaign on `gate`, which adds its outcome.
    static func run(_ scenario: Scenario, on gate: inout ScenarioGate, options: CampaignOptions, flags: CampaignFlags,
                    store: (any FailureStore)?, maintainsStore: Bool, io: CommandIO, showProgress: Bool,
                    interrupt: Interrupt) throws(CLIError) -> ScenarioOutcome {
        var plan = ScenarioPlan(options: options)
        plan.exhaustiveDepth = flags.depth
        plan.runTimeoutSeconds = flags.isolation.runTimeoutSeconds
        plan.hangExitCode = ExitCode.hung.rawValue
        plan.wording = BGSim.crashWording(tool: io.toolName)
        plan.failureStore = store
        plan.maintainsStore = maintainsStore
        plan.toolVersion = BGSim.version
        let invocation = io.invocation
        plan.crashBanner = { Isolation.banner(for: $0, invocation: invocation) }
        // An exhaustive search runs in this process (the engine never isolates it).
        if flags.isolation.isolates(scenario, jobs: options.jobs) && scenario.strategy != .exhaustive {
            plan.isolation = .childProcesses(executable: try Isolation.childExecutable(io))
        }
        if showProgress { plan.progress = { io.writeErr(progressLine($0)) } }
        plan.isCancelled = { interrupt.isRequested }
        interrupt.stopsGracefully()  // from here a signal stops the campaign, and the command writes what finished
        let outcome: ScenarioOutcome
        do {
            outcome = try gate.run(scenario, plan: plan)
        } catch {
            throw CLIError(error)
        }
        if showProgress { io.writeErr("\r" + String(repeating: " ", count: 72) + "\r") }
        return outcome
    }

    private static func progressLine(_ update: CampaignProgress) -> String {
        let left = update.secondsLeft.map { String(format: ", %.0f s left", $0) } ?? ""
        return String(format: "\r  %d/%d runs, %.0f runs/s, %d failing", update.runsDone, update.runsTotal,
                      update.runsPerSecond, update.failures) + left + "   "
    }

    /// The exit code a campaign result calls for; `missed`: the scenario missed its expectation.
    static func exitCode(_ result: CampaignResult, missed: Bool) -> ExitCode {
        .mostSevere(missed ? .violation : .success,
                    result.internalErrors.isEmpty ? .success : .internalError,
                    result.nondeterminism.isEmpty ? .success : .nondeterminism,
                    result.stop == .interrupted ? .interrupted : .success)
    }
}

/// The short human summary of a campaign, on stdout.
enum Summary {
    static func print(_ result: CampaignResult, scenario: Scenario, io: CommandIO) {
        let totals = result.totals
        let rate = result.runSeconds > 0 ? Double(totals.runs) / result.runSeconds : 0
        if let stats = result.exhaustive { io.out(ExhaustiveExecution.statsLine(stats, result: result)) }
        io.out("  \(totals.runs) runs: \(totals.passed) passed, \(totals.failed) failed; "
            + "\(totals.events) events, \(Format.seconds(totals.simulatedSeconds)) simulated in "
            + "\(Format.seconds(result.wallSeconds)) (\(Int(rate)) runs/s); digest \(totals.digest.digest)")
        if result.stop == .interrupted { io.out("  INTERRUPTED: the numbers cover the runs that finished") }
        if totals.stops.hitLimit > 0 {
            io.out("  note: \(totals.stops.hitLimit) runs hit their step or settle limit (work that never ends)")
        }
        if let line = CoverageLine.text(result.coverage) { io.out(line) }
        let probes = result.coverage.probes
        if !probes.isEmpty || !scenario.requiredProbes.isEmpty {
            let hit = probes.map { "\($0.name) \($0.count)x" }
            let missing = scenario.missingProbes(in: result.coverage).map { "\($0) never" }
            io.out("  probes: " + (hit + missing).joined(separator: ", "))
        }
        for entry in totals.violations {
            io.out(violationLine(entry, scenario, runs: totals.runs))
        }
        for failure in result.failures {
            let origin = result.exhaustive != nil ? "sequence \(failure.runIndex)"
                : failure.runChoices == nil ? "run seed \(failure.seed)" : "run \(failure.runIndex), a coverage-guided mutant"
            io.out("  - \(failure.failure.invariant) (\(origin)): \(failure.failure.message)")
            io.out("    replay: \(ReplayCommandText(io.invocation).failure(scenario, failure))")
            if failure.shrink != nil {
                io.out("    shrunk to \(failure.shrunkSizeText): "
                    + ReplayCommandText(io.invocation).shrunk(scenario, failure))
            } else if let fault = failure.shrinkFault {
                io.out(fault.isInternalError
                    ? "    NOT SHRUNK: bgsim INTERNAL ERROR while shrinking (a fault of bgsim, not of your code; the "
                        + "failure stands and the replay above reproduces it; please report it): \(fault.message)"
                    : "    not shrunk: a shrink candidate crashed or hung the workload: \(fault.message)")
            }
        }
        for record in result.nondeterminism {
            io.out("  NONDETERMINISM: run seed \(record.seed) gave digest \(record.actual) on \(record.how), "
                + "expected \(record.expected). Usual causes: \(NondeterminismRecord.usualCauses).")
            if let difference = record.firstDifference { io.out("    where they part: \(difference)") }
        }
    }
}

enum Format {
    static func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }
}
