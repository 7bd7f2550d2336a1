import BackgroundTaskSimulator
import DeterministicSimulation

/// `bgsim check [PATH...]`: the CI gate. Runs every scenario with its own budget and checks its
/// expectation: correct workloads must pass, planted bugs must be found.
enum CheckCommand: BGSimCommand {
    static let declaration = CommandDeclaration(
        name: "check", abstract: "the CI gate: every scenario must meet its expectation (pass, or find its bug)",
        options: [
            .positional("PATH", .zeroOrMore, help: "scenario files or folders (default: Scenarios/)"),
            CampaignFlags.jobsOption, CampaignFlags.junitOption, CampaignFlags.quietOption,
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
    }

    static func validate(_ args: Arguments) throws(CLIError) -> Options {
        Options(campaign: try CampaignFlags(args, isolatesByDefault: true), scenarioPaths: args.positional,
                junit: args.value(CampaignFlags.junitOption.name), quiet: args.flag(CampaignFlags.quietOption.name))
    }

    static func run(_ options: Options, io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        let flags = options.campaign
        let scenarios = try ScenarioPaths.load(options.scenarioPaths)
        try OutputPaths.check([options.junit])
        let showProgress = io.stderrIsTerminal && !options.quiet
        let junit = options.junit
        var met = 0
        var code = ExitCode.success
        var suites: [(scenario: Scenario, result: CampaignResult)] = []
        for scenario in scenarios {
            let options = flags.options(for: scenario)
            let result = try CampaignExecution.run(scenario, options: options, isolation: flags.isolation, io: io,
                                                   showProgress: showProgress,
                                               interrupt: interrupt)
            suites.append((scenario, result))
            let verdict = judge(scenario, result)
            io.out("\(verdict.ok ? "ok  " : "FAIL") \(scenario.name) (expect \(scenario.expectation); seed "
                + "\(options.seed), \(result.totals.runs) runs): \(verdict.detail)")
            if !verdict.ok {
                for failure in result.failures.prefix(3) {
                    io.out("     \(failure.failure.invariant): \(failure.failure.message)")
                    io.out("     replay: \(ReplayCommandText.seed(scenario, failure.seed))")
                }
            }
            if verdict.ok { met += 1 }
            if !result.nondeterminism.isEmpty {
                Summary.print(result, scenario: scenario, io: io)
            }
            code = .mostSevere(code, verdict.ok ? .success : .violation,
                               result.nondeterminism.isEmpty ? .success : .nondeterminism,
                               result.stop == .interrupted ? .interrupted : .success)
            if result.stop == .interrupted { break }
        }
        io.out("\(met) of \(scenarios.count) scenarios met their expectation")
        if let path = junit { try OutputPaths.write(JUnitXML.render(suites), to: path) }
        return code
    }

    static func judge(_ scenario: Scenario, _ result: CampaignResult) -> (ok: Bool, detail: String) {
        switch scenario.expectation {
        case .pass:
            if result.totals.failed == 0 { return (true, "no violation") }
            let names = result.totals.violations.map { "\($0.invariant) in \($0.runs) runs" }.joined(separator: ", ")
            return (false, "violated: \(names)")
        case .violation(let id):
            if let entry = result.totals.violations(of: id) {
                let first = result.failures.first { $0.failure.invariant == id }
                let at = first.map { ", first at run seed \($0.seed)" } ?? ""
                return (true, "found \(id) in \(entry.runs) runs\(at)")
            }
            return (false, "the planted bug was not found: no \(id) violation in \(result.totals.runs) runs")
        }
    }
}
