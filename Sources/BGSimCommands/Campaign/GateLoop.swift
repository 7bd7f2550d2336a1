import BackgroundTaskSimulator
import DeterministicSimulation

/// How `fuzz` or `check` shows each scenario of the loop they share (``GateLoop``).
protocol GatePresenter {
    /// Before a scenario's campaign; false skips it (`fuzz`: an exhaustive search in shard 2 and up).
    mutating func begin(_ index: Int, _ scenario: Scenario, options: CampaignOptions) throws(CLIError) -> Bool
    /// After it: the scenario's lines, and its report.
    mutating func present(_ index: Int, _ outcome: ScenarioOutcome, options: CampaignOptions) throws(CLIError)
}

/// The one loop over scenarios behind `fuzz` and `check`: each scenario's campaign on the
/// simulator's gate (``ScenarioGate``: saved failures first, the campaign, the verdict, new
/// failures saved, the tally), its summary line, the JUnit file and the exit code; the
/// presenter prints each scenario.
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
        var gate = ScenarioGate()
        for (index, scenario) in scenarios.enumerated() {
            let options = flags.options(for: scenario)
            guard try presenter.begin(index, scenario, options: options) else { continue }
            let outcome = try CampaignExecution.run(scenario, on: &gate, options: options, flags: flags, store: store,
                                                    maintainsStore: maintainsStore, io: io, showProgress: showProgress,
                                                    interrupt: interrupt)
            try presenter.present(index, outcome, options: options)
            code = .mostSevere(code, CampaignExecution.exitCode(outcome.result, missed: outcome.verdict.isMissed))
            if outcome.result.stop == .interrupted { break }
        }
        io.out(gate.summaryLine)
        if let path = junit {
            let replay = ReplayCommandText(io.invocation)
            try OutputPaths.write(to: path, what: "the JUnit file") {
                gate.junitXML(toolName: "bgsim", savedFailuresDroppedBy: "fuzz", replayCommand: replay.command)
            }
        }
        switch code {
        case .violation:
            io.err("\(io.toolName) \(command): \(gate.missedLine ?? ""); the summary above prints each violation's "
                + "replay command")
        case .nondeterminism: io.err("\(io.toolName) \(command): \(Self.nondeterminismLine)")
        case .internalError: io.err("\(io.toolName) \(command): \(Self.internalErrorLine)")
        case .interrupted: io.err("\(io.toolName) \(command): \(interruptedLine)")
        default: break
        }
        return code
    }

    /// The stderr line of exit 3.
    static let nondeterminismLine = "a run did not replay to the same trace (NONDETERMINISM above); make the "
        + "workload use only what its WorkloadContext gives it (no real time, threads or global state)"

    /// The stderr line when shrinking hit an internal error of bgsim (exit 71).
    static let internalErrorLine = "an internal error of bgsim while shrinking (INTERNAL ERROR above): the failures "
        + "it hit stand unshrunk and their replay commands reproduce them; please report it with those commands"
}
