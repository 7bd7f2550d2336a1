import Foundation
import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats

/// `bgsim fuzz [SCENARIO...] [--runs N] [--seed S] [--jobs J] [--shard K/N] [--report FILE]
/// [--junit FILE] [--quiet]`: runs campaigns and reports what they found.
///
/// With several scenarios, `--report` names a directory (or a path containing `{scenario}`)
/// and gets one report per scenario.
enum FuzzCommand: BGSimCommand {
    static let declaration = CommandDeclaration(
        name: "fuzz", abstract: "run seeded campaigns over scenarios and report what they found",
        options: [
            .positional("SCENARIO", .zeroOrMore, help: "scenario files or folders (default: Scenarios/)"),
            CampaignFlags.runsOption, CampaignFlags.seedOption, CampaignFlags.jobsOption, CampaignFlags.shardOption,
            .valued("--report", "FILE", help: "write the JSON report; with several scenarios a folder "
                + "(Reports/) or a path with {scenario}"),
            CampaignFlags.junitOption, CampaignFlags.quietOption, CampaignFlags.strategyOption, CampaignFlags.depthOption,
            FailureDatabaseFlags.directoryOption, FailureDatabaseFlags.disableOption,
            Isolation.isolateOption, Isolation.noIsolateOption, Isolation.runTimeoutOption,
        ],
        discussion: [
            "Every failure prints its invariant, its run seed and a replay command that reproduces it.",
            "Each scenario is judged by its expectation: a planted bug's violation is found as expected.",
            "Exit 0 when every scenario met its expectation, 1 when one did not, 3 on nondeterminism,",
            "130 when interrupted.",
            "A crash in workload code without --isolate prints the run seed and replay command and exits 70;",
            "a run over --run-timeout, 124. With --isolate both are findings (no-crash, no-hang) and it goes on;",
            "scenarios that expect no-crash or no-hang always run isolated unless --no-isolate is given.",
            "Before any run (exit 73): no output may overwrite a scenario file or another output, or sit in",
            "a scenario folder being run or the failure database; two scenarios of one name are exit 65.",
        ])

    struct Options {
        var campaign: CampaignFlags
        var scenarioPaths: [String]
        var report: String?
        var junit: String?
        var quiet: Bool
        var failureDatabase: FailureDatabaseFlags
    }

    static func validate(_ args: Arguments) throws(CLIError) -> Options {
        Options(campaign: try CampaignFlags(args), scenarioPaths: args.positional, report: args.value("--report"),
                junit: args.value(CampaignFlags.junitOption.name), quiet: args.flag(CampaignFlags.quietOption.name),
                failureDatabase: try FailureDatabaseFlags(args))
    }

    static func run(_ options: Options, io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        var flags = options.campaign
        let shardSource = try flags.resolveAutoShard(io.environment)
        let scenarios = flags.applyStrategy(to: try ScenarioPaths.load(options.scenarioPaths, workloads: io.workloads))
        let reportPaths = try ReportPaths.resolve(options.report, scenarios: scenarios)
        let store = options.failureDatabase.store(default: io.failureDatabase)
        try OutputPaths.checkCampaign(reports: reportPaths, junit: options.junit, scenarios: scenarios,
                                      scenarioPaths: options.scenarioPaths, savesFailures: true,
                                      failureDatabase: store?.directory)
        var presenter = Presenter(io: io, flags: flags, shardSource: shardSource, reportPaths: reportPaths,
                                  storeDirectory: store?.directory)
        let loop = GateLoop(command: "fuzz", flags: flags, store: store, maintainsStore: true, junit: options.junit,
                            interruptedLine: "interrupted; the reports hold the runs that finished")
        return try loop.run(scenarios, presenter: &presenter, io: io, showProgress: !options.quiet && io.stderrIsTerminal,
                            interrupt: interrupt)
    }

    /// `fuzz`'s view of each scenario: a header, the summary and verdict, the report.
    struct Presenter: GatePresenter {
        let io: CommandIO
        let flags: CampaignFlags
        let shardSource: String?
        let reportPaths: [String]
        let storeDirectory: String?

        func begin(_ index: Int, _ scenario: Scenario, options: CampaignOptions) throws(CLIError) -> Bool {
            let replay = ReplayCommandText(io.invocation)
            if ExhaustiveExecution.skips(scenario, options: options) {
                io.out("\(scenario.name) (\(scenario.file)): exhaustive search, skipped in shard \(options.shard) "
                    + "(it is not sharded: shard 1 runs it whole)")
                if let path = reportPaths[safe: index] {  // a report with no runs, which merge joins to shard 1's
                    let result = CampaignResult.searchedInShardOne(
                        options: options, depth: flags.exhaustiveOptions(for: scenario).depth)
                    try writeReport(result, of: scenario, replay: replay, to: path)
                }
                return false
            } else if scenario.strategy == .exhaustive {
                io.out(ExhaustiveExecution.header(scenario, options: options, exhaustive: flags.exhaustiveOptions(for: scenario),
                                                  note: ExhaustiveExecution.note(flags, options: options)))
            } else {
                io.out("seed \(options.seed)  \(scenario.name) (\(scenario.file)): \(options.runs) runs, "
                    + "\(options.jobs) jobs\(options.shard == .whole && shardSource == nil ? "" : ", shard \(options.shard)")"
                    + (shardSource.map { " from \($0)" } ?? ""))
            }
            return true
        }

        func present(_ index: Int, _ outcome: ScenarioOutcome, options: CampaignOptions) throws(CLIError) {
            let scenario = outcome.scenario
            if outcome.saved.replayed > 0 { io.out("  \(outcome.saved.summary(droppedBy: "fuzz"))") }
            Summary.print(outcome.result, scenario: scenario, io: io)
            Summary.printVerdict(outcome.verdict, io: io)
            if !outcome.added.isEmpty, let directory = storeDirectory {
                io.out("  saved \(outcome.added.count) new \(outcome.added.count == 1 ? "failure" : "failures") to "
                    + "\(directory)/ (\(outcome.added.map(\.invariant).joined(separator: ", ")))")
            }
            if let path = reportPaths[safe: index] {
                try writeReport(outcome.result, of: scenario, replay: ReplayCommandText(io.invocation), to: path)
            }
        }
    }

    /// Writes the JSON report of `scenario`'s campaign to `path` (atomically).
    static func writeReport(_ result: CampaignResult, of scenario: Scenario, replay: ReplayCommandText,
                            to path: String) throws(CLIError) {
        try OutputPaths.write(to: path, what: "the report of \(scenario.name)") {
            JSONWriter().string(for: CampaignReport.json(result, scenarioName: scenario.name, scenarioFile: scenario.file,
                                                         expectation: scenario.expectation, toolVersion: BGSim.version,
                                                         toolName: "bgsim", replayCommand: { replay.failure(scenario, $0) }))
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// Where `--report` writes each scenario's report.
enum ReportPaths {
    static func resolve(_ value: String?, scenarios: [Scenario]) throws(CLIError) -> [String] {
        guard let value else { return [] }
        if value.contains("{scenario}") {
            return scenarios.map { value.replacingOccurrences(of: "{scenario}", with: $0.name) }
        }
        if value.hasSuffix("/") || ScenarioLoader.isDirectory(value) {
            let base = value.hasSuffix("/") ? value : value + "/"
            return scenarios.map { base + $0.name + ".json" }
        }
        guard scenarios.count == 1 else {
            throw .usage("--report \(value): \(scenarios.count) scenarios need one report each; give a directory "
                + "(--report Reports/) or a path with {scenario} (--report Reports/{scenario}.json)")
        }
        return [value]
    }
}
