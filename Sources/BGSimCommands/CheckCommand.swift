import BackgroundTaskSimulator
import DeterministicSimulation

/// `bgsim check [PATH...]`: the CI gate. Runs every scenario with its own budget and checks its
/// expectation: correct workloads must pass, planted bugs must be found.
enum CheckCommand: BGSimCommand {
    static let declaration = CommandDeclaration(
        name: "check", abstract: "the CI gate: every scenario must meet its expectation (pass, or find its bug)",
        options: [
            .positional("PATH", .zeroOrMore, help: "scenario files or folders (default: Scenarios/)"),
            CampaignFlags.jobsOption, CampaignFlags.junitOption, CampaignFlags.quietOption, CampaignFlags.strategyOption,
            FailureDatabaseFlags.directoryOption, FailureDatabaseFlags.disableOption,
            Isolation.noIsolateOption, Isolation.runTimeoutOption,
        ],
        discussion: [
            "Each scenario runs with its own runs and seed. Exit 0 when every scenario met its expectation,",
            "1 when one did not, 3 on nondeterminism, 130 when interrupted. Runs are isolated in child",
            "processes, so a crash or hang in workload code is a finding (no-crash, no-hang), not the end.",
        ])

    struct Options {
        var campaign: CampaignFlags
        var scenarioPaths: [String]
        var junit: String?
        var quiet: Bool
        var failureDatabase: FailureDatabaseFlags
    }

    static func validate(_ args: Arguments) throws(CLIError) -> Options {
        Options(campaign: try CampaignFlags(args, isolatesByDefault: true), scenarioPaths: args.positional,
                junit: args.value(CampaignFlags.junitOption.name), quiet: args.flag(CampaignFlags.quietOption.name),
                failureDatabase: try FailureDatabaseFlags(args))
    }

    static func run(_ options: Options, io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        let flags = options.campaign
        let scenarios = flags.applyStrategy(to: try ScenarioPaths.load(options.scenarioPaths, workloads: io.workloads))
        try OutputPaths.checkCampaign(reports: [], junit: options.junit, scenarios: scenarios,
                                      scenarioPaths: options.scenarioPaths, savesFailures: false,
                                      failureDatabase: options.failureDatabase.database(default: io.failureDatabase)?.directory)
        let showProgress = io.stderrIsTerminal && !options.quiet
        let replay = ReplayCommandText(io.invocation)
        var gate = GateTally()
        let database = options.failureDatabase.database(default: io.failureDatabase)
        var code = ExitCode.success
        var suites: [(scenario: Scenario, result: CampaignResult, notes: [String])] = []
        for scenario in scenarios {
            let options = flags.options(for: scenario)
            let saved = try database?.replay(scenario, dropsFixed: false) ?? SavedFailureReplay()
            let result = try CampaignExecution.run(scenario, options: options, isolation: flags.isolation, io: io,
                                                   showProgress: showProgress,
                                               interrupt: interrupt)
            suites.append((scenario, result, saved.replayed > 0 ? [saved.summary] : []))
            let verdict = scenario.expectation.verdict(for: result, invariants: scenario.invariants.map(\.id),
                                                       savedFailures: saved.stillFailing.map(\.invariant),
                                                       requiredProbes: scenario.requiredProbes)
            gate.add(verdict, scenario: scenario.name)
            gate.add(saved)
            io.out("\(verdict.isMissed ? "FAIL" : "ok  ") \(scenario.name) (expect \(scenario.expectation); seed "
                + "\(options.seed), \(result.totals.runs) runs): \(verdict.headline)")
            if saved.replayed > 0 { io.out("     \(saved.summary)") }
            if verdict.isMissed {
                for failure in saved.stillFailing where !result.failures.contains(where: { $0.failure.invariant == failure.invariant }) {
                    io.out("     \(failure.invariant) (saved failure): \(failure.message)")
                    var savedRun = scenario  // its choices are a run of the strategy that saved them
                    savedRun.strategyOverride = failure.strategy
                    io.out("     replay: \(replay.choices(savedRun, failure.choices))")
                }
                for failure in result.failures.prefix(3) {
                    io.out("     \(failure.failure.invariant): \(failure.failure.message)")
                    io.out("     replay: \(replay.failure(scenario, failure))")
                }
            }
            if !result.nondeterminism.isEmpty {
                Summary.print(result, scenario: scenario, io: io)
            }
            for failure in result.internalErrors {
                io.out("     INTERNAL ERROR of bgsim while shrinking \(failure.failure.invariant) (not your code; the failure "
                    + "stands unshrunk): \(failure.shrinkFault?.message ?? "")")
                io.out("     replay: \(replay.failure(scenario, failure))")
            }
            code = .mostSevere(code, CampaignExecution.exitCode(result, missed: verdict.isMissed))
            if result.stop == .interrupted { break }
        }
        io.out(gate.summaryLine)
        if let path = options.junit {
            try OutputPaths.write(to: path, what: "the JUnit file") { JUnitXML.render(suites, invocation: io.invocation) }
        }
        switch code {
        case .violation: io.err("bgsim check: \(gate.errorLine)")
        case .nondeterminism: io.err("bgsim check: \(GateTally.nondeterminismLine)")
        case .internalError: io.err("bgsim check: \(GateTally.internalErrorLine)")
        case .interrupted: io.err("bgsim check: interrupted; the numbers cover the scenarios that finished")
        default: break
        }
        return code
    }
}
