import BackgroundTaskSimulator
import DeterministicSimulation

/// How `fuzz` or `check` shows each scenario of the loop they share (``GateLoop``).
protocol GatePresenter {
    /// Before a scenario's campaign; false skips it (`fuzz`: an exhaustive search in shard 2 and up).
    mutating func begin(_ index: Int, _ scenario: Scenario, options: CampaignOptions) throws(CLIError) -> Bool
    /// After it: the scenario's lines, and its report.
    mutating func present(_ index: Int, _ outcome: ScenarioOutcome, options: CampaignOptions) throws(CLIError)
}

/// The one loop over scenarios behind `fuzz` and `check`: each scenario's campaign through the
/// simulator's pipeline (saved failures first, the campaign, the verdict, new failures saved),
/// the tally of verdicts, the JUnit file and the exit code; the presenter prints.
///
/// ```swift
/// var presenter = CheckPresenter(io: io)
/// return try GateLoop(command: "check", flags: flags, store: store, maintainsStore: false, junit: options.junit,
///                     interruptedLine: "interrupted; …").run(scenarios, presenter: &presenter, io: io, ...)
/// ```
///
/// Contract: scenarios run in the given order, stopping after the first interrupted one; the
/// exit code is the most severe of the scenarios' (``CampaignExecution/exitCode(_:missed:)``),
/// and every non-zero one ends with one stderr line `bgsim COMMAND: …`.
struct GateLoop {
    var command: String
    var flags: CampaignFlags
    var store: (any FailureStore)?
    /// `fuzz` maintains the failure database; `check` only reads it.
    var maintainsStore: Bool
    var junit: String?
    /// The stderr line of an interrupted command.
    var interruptedLine: String

    func run(_ scenarios: [Scenario], presenter: inout some GatePresenter, io: CommandIO, showProgress: Bool,
             interrupt: Interrupt) throws(CLIError) -> ExitCode {
        var code = ExitCode.success
        var gate = GateTally()
        var suites: [(scenario: Scenario, result: CampaignResult, notes: [String])] = []
        for (index, scenario) in scenarios.enumerated() {
            let options = flags.options(for: scenario)
            guard try presenter.begin(index, scenario, options: options) else { continue }
            let outcome = try CampaignExecution.run(scenario, options: options, flags: flags, store: store,
                                                    maintainsStore: maintainsStore, io: io, showProgress: showProgress,
                                                    interrupt: interrupt)
            try presenter.present(index, outcome, options: options)
            gate.add(outcome.verdict, scenario: scenario.name)
            gate.add(outcome.saved)
            suites.append((scenario, outcome.result, outcome.saved.replayed > 0 ? [outcome.saved.summary] : []))
            code = .mostSevere(code, CampaignExecution.exitCode(outcome.result, missed: outcome.verdict.isMissed))
            if outcome.result.stop == .interrupted { break }
        }
        io.out(gate.summaryLine)
        if let path = junit {
            try OutputPaths.write(to: path, what: "the JUnit file") { JUnitXML.render(suites, invocation: io.invocation) }
        }
        switch code {
        case .violation: io.err("\(io.toolName) \(command): \(gate.errorLine)")
        case .nondeterminism: io.err("\(io.toolName) \(command): \(GateTally.nondeterminismLine)")
        case .internalError: io.err("\(io.toolName) \(command): \(GateTally.internalErrorLine)")
        case .interrupted: io.err("\(io.toolName) \(command): \(interruptedLine)")
        default: break
        }
        return code
    }
}
