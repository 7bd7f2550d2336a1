import Foundation
import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats

/// `bgsim fuzz [SCENARIO...] [--runs N] [--seed S] [--jobs J] [--shard K/N] [--report FILE]
/// [--junit FILE] [--quiet]`: runs campaigns and reports what they found.
///
/// With several scenarios, `--report` names a directory (or a path containing `{scenario}`)
/// and gets one report per scenario.
enum FuzzCommand {
    static func run(_ arguments: [String], io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: ["--runs", "--seed", "--jobs", "--shard", "--report", "--junit"],
                                 flags: ["--quiet"])
        let flags = try CampaignFlags(args)
        let scenarios = try ScenarioPaths.load(args.positional)
        let reportPaths = try ReportPaths.resolve(args.value("--report"), scenarios: scenarios)
        try OutputPaths.check(reportPaths + [args.value("--junit")])
        let progress = !args.flag("--quiet") && io.stderrIsTerminal

        var code = ExitCode.success
        var junitSuites: [(scenario: Scenario, result: CampaignResult)] = []
        for (index, scenario) in scenarios.enumerated() {
            let options = flags.options(for: scenario)
            io.out("seed \(options.seed)  \(scenario.name) (\(scenario.file)): \(options.runs) runs, "
                + "\(options.jobs) jobs\(options.shard == .whole ? "" : ", shard \(options.shard.index)/\(options.shard.count)")")
            let result = CampaignExecution.run(scenario, options: options, io: io, showProgress: progress,
                                               interrupt: interrupt)
            Summary.print(result, scenario: scenario, io: io)
            if let path = reportPaths[safe: index] {
                let report = CampaignReport.json(result, scenarioName: scenario.name, scenarioFile: scenario.file,
                                                 toolVersion: BGSim.version,
                                                 replayCommand: { ReplayCommandText.seed(scenario, $0.seed) })
                try OutputPaths.write(JSONWriter().string(for: report), to: path)
            }
            junitSuites.append((scenario, result))
            code = worse(code, CampaignExecution.exitCode(result))
            if result.stop == .interrupted { break }
        }
        if let path = args.value("--junit") {
            try OutputPaths.write(JUnitXML.render(junitSuites), to: path)
        }
        if code == .interrupted { io.err("bgsim fuzz: interrupted; the reports hold the runs that finished") }
        return code
    }

    /// The more serious of two outcomes.
    static func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode {
        let order: [ExitCode] = [.success, .violation, .nondeterminism, .interrupted]
        return (order.firstIndex(of: a) ?? 0) >= (order.firstIndex(of: b) ?? 0) ? a : b
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
        if value.hasSuffix("/") || ScenarioPaths.isDirectory(value) {
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
