import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats

/// The command that reproduces one failure, as printed and reported: it starts the way bgsim was
/// invoked (``CommandIO/invocation``), so it runs as printed, and names the exploration strategy
/// when `--strategy` replaced the scenario's, and always a failure's run's effective strategy in
/// a phased campaign (``Scenario/strategyArgument``, ``Scenario/forRun(_:)``).
///
/// ```swift
/// ReplayCommandText(io.invocation).seed(scenario, failure.seed)
/// // "swift run bgsim replay Scenarios/p1.json --seed 0x80276d8c093bb1e3"
/// ```
struct ReplayCommandText {
    let prefix: String

    init(_ prefix: String) { self.prefix = prefix }

    func seed(_ scenario: Scenario, _ seed: Seed) -> String {
        "\(prefix) replay \(Invocation.shellWord(scenario.file)) --seed \(seed)\(scenario.strategyArgument)"
    }

    /// The command that replays a failure's original run: `--seed`, or `--choices` for a
    /// coverage-guided mutant, which its seed alone does not reproduce.
    func original(_ scenario: Scenario, _ failure: FailureRecord) -> String {
        let run = scenario.forRun(failure.runIndex)
        return failure.runChoices.map { choices(run, $0) } ?? seed(run, failure.seed)
    }

    /// The command that replays a failure's shrunk choices, under its run's effective strategy.
    func shrunk(_ scenario: Scenario, _ failure: FailureRecord) -> String {
        choices(scenario.forRun(failure.runIndex), failure.choices)
    }

    func choices(_ scenario: Scenario, _ choices: ChoiceSequence) -> String {
        "\(prefix) replay \(Invocation.shellWord(scenario.file)) --choices \(choices.token)\(scenario.strategyArgument)"
    }
}

/// Checks that output paths can be written, before any work (exit 73).
enum OutputPaths {
    static func check(_ paths: [String?]) throws(CLIError) {
        for case let path? in paths {
            do {
                try AtomicFile.checkWritable(path)
            } catch {
                throw CLIError(.cannotCreate, error.description)
            }
        }
    }

    /// Writes one output atomically; a signal that comes meanwhile waits for the rename
    /// (``Interrupt/whileWriting(_:)``), so an interrupted bgsim never leaves a torn file or a
    /// temporary one beside it.
    static func write(_ text: String, to path: String) throws(CLIError) {
        try Interrupt.shared.whileWriting { () throws(CLIError) in
            do throws(OutputError) {
                try AtomicFile.write(text, to: path)
            } catch {
                throw CLIError(.cannotCreate, error.description)
            }
        }
    }
}
