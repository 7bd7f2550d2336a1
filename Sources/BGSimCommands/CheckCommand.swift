import BackgroundTaskSimulator
import DeterministicSimulation

/// `bgsim check [PATH...]`: the CI gate. Runs every scenario with its own budget and checks its
/// expectation: correct workloads must pass, planted bugs must be found.
enum CheckCommand {
    static func run(_ arguments: [String], io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: ["--jobs", "--junit"], flags: ["--quiet"])
        let flags = try CampaignFlags(args)
        let scenarios = try ScenarioPaths.load(args.positional)
        try OutputPaths.check([args.value("--junit")])
        var met = 0
        var code = ExitCode.success
        var suites: [(scenario: Scenario, result: CampaignResult)] = []
        for scenario in scenarios {
            let options = flags.options(for: scenario)
            let result = CampaignExecution.run(scenario, options: options, io: io,
                                               showProgress: io.stderrIsTerminal && !args.flag("--quiet"),
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
                code = .nondeterminism
                Summary.print(result, scenario: scenario, io: io)
            } else if !verdict.ok, code == .success {
                code = .violation
            }
            if result.stop == .interrupted {
                code = .interrupted
                break
            }
        }
        io.out("\(met) of \(scenarios.count) scenarios met their expectation")
        if let path = args.value("--junit") { try OutputPaths.write(JUnitXML.render(suites), to: path) }
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
