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
        if scenario.strategy == .exhaustive {
            let search = exhaustive ?? ExhaustiveOptions(depth: scenario.campaign.depth ?? ExhaustiveOptions.defaultDepth,
                                                         jobs: options.jobs)
            return ExhaustiveExecution.run(scenario, options: options, exhaustive: search, interrupt: interrupt)
        }
        let local = SimulationTarget(spec: scenario.runSpec)
        let timeout = isolation.timeout(for: scenario)
        if isolation.isolates(scenario) {
            let target = IsolatedTarget(local: local, executable: try Isolation.childExecutable(io),
                                        arguments: Isolation.workerArguments(for: scenario), runTimeoutSeconds: timeout)
            defer { target.finishChildren() }
            return run(target, scenario, options: options, io: io, showProgress: showProgress, interrupt: interrupt)
        }
        if CrashSignals.isInstalled {
            RunWatchdog.start(timeoutSeconds: timeout ?? 0, exitCode: ExitCode.hung.rawValue)
        }
        return run(local, scenario, options: options, io: io, showProgress: showProgress, interrupt: interrupt)
    }

    private static func run(_ target: some CampaignTarget, _ scenario: Scenario, options: CampaignOptions,
                            io: CommandIO, showProgress: Bool, interrupt: Interrupt) -> CampaignResult {
        var progress: (@Sendable (CampaignProgress) -> Void)?
        if showProgress {
            progress = { update in
                let left = update.secondsLeft.map { String(format: ", %.0f s left", $0) } ?? ""
                let line = String(format: "\r  %d/%d runs, %.0f runs/s, %d failing", update.runsDone,
                                  update.runsTotal, update.runsPerSecond, update.failures)
                io.writeErr(line + left + "   ")
            }
        }
        let result = Campaign.run(target, options: options, progress: progress,
                                  isCancelled: { interrupt.isRequested }, crashBanner: Isolation.banner(for: scenario, invocation: io.invocation))
        if showProgress { io.writeErr("\r" + String(repeating: " ", count: 72) + "\r") }
        return result
    }

    /// The exit code a campaign result calls for; `missed`: the scenario missed its expectation.
    static func exitCode(_ result: CampaignResult, missed: Bool) -> ExitCode {
        .mostSevere(missed ? .violation : .success,
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
                    + ReplayCommandText(io.invocation).choices(scenario, failure.choices))
            }
        }
        for record in result.nondeterminism {
            io.out("  NONDETERMINISM: run seed \(record.seed) gave digest \(record.actual) on \(record.how), "
                + "expected \(record.expected). A workload that reads real time, real threads or global state "
                + "is the usual cause.")
        }
    }
}

enum Format {
    static func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }
}
