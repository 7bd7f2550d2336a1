#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import BackgroundTaskSimulator
import DeterministicSimulation

/// `bgsim _isolated-worker SCENARIO [STRATEGY]`: the hidden command an isolated campaign starts as its
/// child (``Isolation``): it loads the scenario and serves run requests on stdin with verdict
/// lines on stdout (``IsolatedWorker``) until stdin ends. Not listed by `bgsim help`: nobody
/// types it, and its protocol is internal to one bgsim version (parent and child are always the
/// same executable).
///
/// ```swift
/// IsolatedWorkerCommand.run(["/repo/Scenarios/token-correct-ios17.json"], io: io)
/// ```
///
/// Contract: exit 0 at the end of its input; 65/66 for a scenario that does not load; 65 for a
/// request it cannot read. A crash in a run ends it with 70 after writing the run's choices.
/// Started by a parent bgsim, it dies with that parent, even in a run that never yields
/// (``ParentLifeline``), and ignores SIGINT and SIGTERM: Ctrl-C reaches the whole process group,
/// and the parent, which stops gracefully, ends its children itself.
enum IsolatedWorkerCommand {
    static let name = "_isolated-worker"

    static func run(_ arguments: [String], io: CommandIO) -> ExitCode {
        if ParentLifeline.watch(exitCode: ExitCode.success.rawValue) {
            for number in [SIGINT, SIGTERM] { signal(number, SIG_IGN) }
        }
        let strategy = arguments.count == 2 ? ExplorationStrategy(rawValue: arguments[1]) : nil
        guard arguments.count == 1 || strategy != nil else {
            io.err("bgsim \(name): internal command; it takes one scenario file and optionally an exploration "
                + "strategy (it is started by --isolate)")
            return .usage
        }
        var scenario: Scenario
        do {
            scenario = try ScenarioPaths.loadFile(arguments[0], workloads: io.workloads)
        } catch {
            io.err("bgsim \(name): \(error.message)")
            return error.code
        }
        scenario.strategyOverride = strategy
        CrashSignals.installIfNeeded(exitCode: ExitCode.crashed.rawValue, wording: BGSim.crashWording,
                                     internalErrorExitCode: ExitCode.internalError.rawValue)
        let banner = CrashBanner(run: "an isolated run of scenario \(scenario.name)", replay: "(the parent prints it)")
        let code = IsolatedWorker.serve(SimulationTarget(spec: scenario.runSpec), banner: banner)
        return code == 0 ? .success : .dataError
    }
}
