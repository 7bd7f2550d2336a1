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
        let store = options.failureDatabase.store(default: io.failureDatabase)
        try OutputPaths.checkCampaign(reports: [], junit: options.junit, scenarios: scenarios,
                                      scenarioPaths: options.scenarioPaths, savesFailures: false,
                                      failureDatabase: store?.directory)
        var presenter = Presenter(io: io)
        let loop = GateLoop(command: "check", flags: flags, store: store, maintainsStore: false, junit: options.junit,
                            interruptedLine: "interrupted; the numbers cover the scenarios that finished")
        return try loop.run(scenarios, presenter: &presenter, io: io, showProgress: io.stderrIsTerminal && !options.quiet,
                            interrupt: interrupt)
    }

    /// `check`'s view of each scenario: one line, and for a missed expectation its failures.
    struct Presenter: GatePresenter {
        let io: CommandIO

        func begin(_ index: Int, _ scenario: Scenario, options: CampaignOptions) -> Bool { true }

        func present(_ index: Int, _ outcome: ScenarioOutcome, options: CampaignOptions) {
            let (scenario, result, verdict, saved) = (outcome.scenario, outcome.result, outcome.verdict, outcome.saved)
            let replay = ReplayCommandText(io.invocation)
            io.out("\(verdict.isMissed ? "FAIL" : "ok  ") \(scenario.name) (expect \(scenario.expectation); seed "
                + "\(options.seed), \(result.totals.runs) runs): \(verdict.headline)")
            if saved.replayed > 0 { io.out("     \(saved.summary(droppedBy: "fuzz"))") }
            for example in verdict.isMissed ? outcome.examples() : [] {
                io.out("     \(example.invariant)\(example.isSaved ? " (saved failure)" : ""): \(example.message)")
                io.out("     replay: \(replay.command(example.replay))")
            }
            if !result.nondeterminism.isEmpty {
                Summary.print(result, scenario: scenario, io: io)
            }
            for failure in result.internalErrors {
                io.out("     INTERNAL ERROR of bgsim while shrinking \(failure.failure.invariant) (not your code; the failure "
                    + "stands unshrunk): \(failure.shrinkFault?.message ?? "")")
                io.out("     replay: \(replay.failure(scenario, failure))")
            }
        }
    }
}
