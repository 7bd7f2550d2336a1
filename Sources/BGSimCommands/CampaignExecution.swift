import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation

/// Runs one scenario's campaign with progress on stderr (only on a terminal) and interruption,
/// in child processes when `isolation` says so (``Isolation``), else in this process with the
/// crash banner and, when bgsim's handler is installed, the hang watchdog.
enum CampaignExecution {
    static func run(_ scenario: Scenario, options: CampaignOptions, isolation: Isolation = Isolation(isolated: false),
                    io: CommandIO, showProgress: Bool, interrupt: Interrupt,
                    exhaustive: ExhaustiveOptions? = nil) throws(CLIError) -> CampaignResult {
        interrupt.stopsGracefully()  // from here a signal stops the campaign, and the command writes what finished
        if scenario.strategy == .exhaustive {
            let search = exhaustive ?? ExhaustiveOptions(depth: scenario.campaign.depth ?? ExhaustiveOptions.defaultDepth,
                                                         jobs: options.jobs)
            return ExhaustiveExecution.run(scenario, options: options, exhaustive: search, interrupt: interrupt)
        }
        // Each phase's runs (``Scenario/forRun(_:)``: a default campaign's first runs are random
        // runs) on that phase's target; a strategy without phases gives one scenario twice.
        let phases = RunPhases(first: scenario.strategy.randomRuns, use: scenario.forRun(0),
                               then: scenario.forRun(scenario.strategy.randomRuns))
        let locals = phases.map { SimulationTarget(spec: $0.runSpec) }
        let timeout = isolation.timeout(for: scenario)
        let banners = phases.map { Isolation.banner(for: $0, invocation: io.invocation) }
        if isolation.isolates(scenario) {
            let executable = try Isolation.childExecutable(io)
            let early = IsolatedTarget(local: locals.early, executable: executable,
                                       arguments: Isolation.workerArguments(for: phases.early), runTimeoutSeconds: timeout)
            let late = IsolatedTarget(local: locals.late, executable: executable,
                                      arguments: Isolation.workerArguments(for: phases.late), runTimeoutSeconds: timeout)
            defer {
                early.finishChildren()
                late.finishChildren()
            }
            let targets = RunPhases<any CampaignTarget>(first: phases.earlyRuns, use: early, then: late)
            return run(targets, banners, options: options, io: io, showProgress: showProgress, interrupt: interrupt)
        }
        if CrashSignals.isInstalled {
            RunWatchdog.start(timeoutSeconds: timeout ?? 0, exitCode: ExitCode.hung.rawValue)
        }
        let targets = RunPhases<any CampaignTarget>(first: phases.earlyRuns, use: locals.early, then: locals.late)
        return run(targets, banners, options: options, io: io, showProgress: showProgress, interrupt: interrupt)
    }

    private static func run(_ targets: RunPhases<any CampaignTarget>, _ banners: RunPhases<CrashBanner>,
                            options: CampaignOptions, io: CommandIO, showProgress: Bool,
                            interrupt: Interrupt) -> CampaignResult {
        var progress: (@Sendable (CampaignProgress) -> Void)?
        if showProgress {
            progress = { update in
                let left = update.secondsLeft.map { String(format: ", %.0f s left", $0) } ?? ""
                let line = String(format: "\r  %d/%d runs, %.0f runs/s, %d failing", update.runsDone,
                                  update.runsTotal, update.runsPerSecond, update.failures)
                io.writeErr(line + left + "   ")
            }
        }
        let result = Campaign.run(phases: targets, options: options, progress: progress,
                                  isCancelled: { interrupt.isRequested }, crashBanners: banners)
        if showProgress { io.writeErr("\r" + String(repeating: " ", count: 72) + "\r") }
        return result
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
            io.out(violationLine(entry, scenario))
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
                + "expected \(record.expected). A workload that reads real time, real threads or global state "
                + "is the usual cause.")
            if let difference = record.firstDifference { io.out("    where they part: \(difference)") }
        }
    }
}

enum Format {
    static func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }
}
