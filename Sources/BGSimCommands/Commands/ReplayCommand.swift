import Foundation
import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats

/// `bgsim replay SCENARIO (--seed S | --choices C) [--trace FILE] [--perfetto FILE]`: re-runs one
/// run, prints its trace readably with the app state, marks where each invariant was violated,
/// and checks that a second replay gives the same digest (exit 3 if not).
enum ReplayCommand: BGSimCommand {
    static let declaration = CommandDeclaration(
        name: "replay", abstract: "re-run one run from its seed or choices and print its trace",
        options: [
            .positional("SCENARIO", .one, help: "the scenario file the run belongs to"),
            .valued("--seed", "S", help: "the run seed a failure printed: 0x and 16 hex digits, or decimal"),
            .valued("--choices", "C", help: "a recorded, usually shrunk, choice sequence: the c1. token of a report"),
            .valued("--trace", "FILE", help: "also write the trace as JSON"),
            .valued("--perfetto", "FILE", help: "also write Chrome/Perfetto trace events (open in ui.perfetto.dev)"),
            .valued("--strategy", "NAME", help: "the exploration strategy the run came from, which fuzz and "
                + "check replay commands name (default: the one the file's campaign ran this run seed under; for "
                + "another seed or --choices, the file's campaign.strategy, else random): \(ExplorationStrategy.names)"),
        ],
        exactlyOneOf: ["--seed", "--choices"],
        discussion: [
            "Violations are marked '>>' in the trace. The run is replayed twice; if the digests differ",
            "the workload is nondeterministic (exit 3). Exit 1 if an invariant was violated. The run is not",
            "isolated: a crash prints the run and exits 70, a run over 60 s of wall-clock time exits 124.",
        ])

    /// Where the replayed run's choices come from.
    enum Source {
        case seed(Seed)
        case choices(ChoiceSequence)
    }

    struct Options {
        var scenarioPath: String
        var source: Source
        var trace: String?
        var perfetto: String?
        var strategy: ExplorationStrategy? = nil
    }

    static func validate(_ args: Arguments) throws(CLIError) -> Options {
        let source: Source
        if let seed = try args.seed("--seed") {
            source = .seed(seed)
        } else {
            // The declaration's exactlyOneOf guarantees --choices here.
            let token = args.value("--choices") ?? ""
            do {
                source = .choices(try ChoiceSequence(token: token))
            } catch {
                throw .usage("--choices: \(error.description) (paste the token from the report or the fuzz output)")
            }
        }
        return Options(scenarioPath: args.positional.first ?? "", source: source, trace: args.value("--trace"),
                       perfetto: args.value("--perfetto"), strategy: try CampaignFlags.strategy(args))
    }

    static func run(_ options: Options, io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        var scenario = try ScenarioPaths.loadFile(options.scenarioPath, workloads: io.workloads)
        scenario.strategyOverride = options.strategy
        // Without --strategy, a run seed of the file's campaign replays under the strategy the
        // campaign ran it with (a default campaign's coin runs); else the scenario's runStrategy.
        if options.strategy == nil, case .seed(let seed) = options.source { scenario = scenario.forRunSeed(seed) }
        try OutputPaths.check([OutputFile("--trace", options.trace), OutputFile("--perfetto", options.perfetto)],
                              reading: [options.scenarioPath])
        let makeSource: () -> ChoiceSource
        let label: String
        switch options.source {
        case .seed(let seed):
            makeSource = { ChoiceSource(seed: seed) }
            label = "seed \(seed)"
        case .choices(let sequence):
            makeSource = { ChoiceSource(replaying: sequence) }
            label = "choices (\(sequence.values.count) values)"
        }

        var seed = Seed(0)
        if case .seed(let given) = options.source { seed = given }
        // A crash or hang names this replay.
        let (outcome, again) = Campaign.replaying(
            banner: Isolation.replayBanner(scenario, options.source, invocation: io.invocation), seed: seed,
            runTimeoutSeconds: ScenarioPlan.defaultRunTimeoutSeconds, hangExitCode: ExitCode.hung.rawValue) {
            (SimulationRunner.run(scenario.runSpec, choices: makeSource(), keepTrace: true),
             SimulationRunner.run(scenario.runSpec, choices: makeSource(), keepTrace: false))
        }
        io.out("\(label)  \(scenario.name) (\(scenario.file)) on \(scenario.profile.displayName)")
        TracePrinter.print(outcome, io: io)
        if let path = options.trace {
            let replay = ReplayCommandText(io.invocation)
            let command = switch options.source {
            case .seed(let seed): replay.seed(scenario, seed)
            case .choices(let sequence): replay.choices(scenario, sequence)
            }
            let source = TraceFile.Source(toolName: io.toolName, toolVersion: BGSim.version, scenarioName: scenario.name,
                                          scenarioFile: scenario.file, replay: command)
            try OutputPaths.write(outcome.traceJSON(source: source), to: path)
        }
        if let path = options.perfetto {
            try OutputPaths.write(outcome.perfettoJSON, to: path)
        }
        guard again.digest == outcome.digest else {
            io.err("\(io.toolName) replay: nondeterminism: the same \(label) gave digests \(outcome.digest) and "
                + "\(again.digest); usual causes: \(NondeterminismRecord.usualCauses)")
            return .nondeterminism
        }
        if let escape = outcome.firstViolation(of: "no-async-escape") {
            io.err("\(io.toolName) replay: nondeterminism: \(escape.message)")
            return .nondeterminism
        }
        return outcome.violations.isEmpty ? .success : .violation
    }
}

/// The readable trace: time, app state, event and fields; violations marked
/// (``RunOutcome/traceText``, which the Swift API prints the same way).
enum TracePrinter {
    static func print(_ outcome: RunOutcome, io: CommandIO) {
        io.writeOut(outcome.traceText)
    }
}
