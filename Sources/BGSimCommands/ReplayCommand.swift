import Foundation
import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats

/// `bgsim replay SCENARIO (--seed S | --choices C) [--trace FILE] [--perfetto FILE]`: re-runs one
/// run, prints its trace readably with the app state, marks where each invariant was violated,
/// and checks that a second replay gives the same digest (exit 3 if not).
enum ReplayCommand {
    static func run(_ arguments: [String], io: CommandIO) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: ["--seed", "--choices", "--trace", "--perfetto"], flags: [])
        guard args.positional.count == 1 else {
            throw .usage("replay takes exactly one SCENARIO file, got \(args.positional.count)")
        }
        let scenario = try ScenarioPaths.loadFile(args.positional[0])
        try OutputPaths.check([args.value("--trace"), args.value("--perfetto")])
        let makeSource: () -> ChoiceSource
        let label: String
        switch (args.value("--seed"), args.value("--choices")) {
        case (let text?, nil):
            let seed: Seed
            do { seed = try Seed(parsing: text) } catch { throw .usage("--seed: \(error.description)") }
            makeSource = { ChoiceSource(seed: seed) }
            label = "seed \(seed)"
        case (nil, let token?):
            let sequence: ChoiceSequence
            do {
                sequence = try ChoiceSequence(token: token)
            } catch {
                throw .usage("--choices: \(error.description) (paste the token from the report or the fuzz output)")
            }
            makeSource = { ChoiceSource(replaying: sequence) }
            label = "choices (\(sequence.values.count) values)"
        default:
            throw .usage("replay needs exactly one of --seed S or --choices C")
        }

        let outcome = SimulationRunner.run(scenario.runSpec, choices: makeSource(), keepTrace: true)
        let again = SimulationRunner.run(scenario.runSpec, choices: makeSource(), keepTrace: false)
        io.out("\(label)  \(scenario.name) (\(scenario.file)) on \(scenario.profile.displayName)")
        TracePrinter.print(outcome, io: io)
        if let path = args.value("--trace") {
            try OutputPaths.write(JSONWriter().string(for: TraceJSON.json(outcome.trace)), to: path)
        }
        if let path = args.value("--perfetto") {
            try OutputPaths.write(JSONWriter(style: .compact).string(for: PerfettoTrace.json(outcome.trace)), to: path)
        }
        guard again.digest == outcome.digest else {
            io.err("bgsim replay: nondeterminism: the same \(label) gave digests \(outcome.digest) and "
                + "\(again.digest); a workload that reads real time, real threads or global state is the usual cause")
            return .nondeterminism
        }
        return outcome.violations.isEmpty ? .success : .violation
    }
}

/// The readable trace: time, app state, event and fields; violations marked.
enum TracePrinter {
    static func print(_ outcome: RunOutcome, io: CommandIO) {
        var state = AppProcessState.notRunning
        for entry in outcome.trace {
            if case .stateChanged(_, let to) = entry.event { state = to }
            let fields = entry.event.fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let marker = entry.event.name == "violation" ? ">>" : "  "
            let stateColumn = state.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
            let time = entry.time.description
            io.out("\(marker) \(String(repeating: " ", count: max(0, 14 - time.count)))\(time)  \(stateColumn)  "
                + "\(entry.event.name)\(fields.isEmpty ? "" : "  " + fields)")
        }
        io.out("digest \(outcome.digest), \(outcome.eventCount) events, ended \(outcome.stop.rawValue) at "
            + "\(outcome.endTime)")
        if outcome.violations.isEmpty {
            io.out("no invariant violated")
        }
        for violation in outcome.violations {
            io.out("VIOLATION \(violation.invariant) at \(violation.time): \(violation.message)")
        }
    }
}
