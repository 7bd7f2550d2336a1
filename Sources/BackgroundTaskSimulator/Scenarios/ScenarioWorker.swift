#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
package import DeterministicSimulation
import SimulationRuntime
import Foundation

/// Both ends of an isolated scenario campaign's worker protocol, in one place: the arguments a
/// parent starts its child with (`_isolated-worker FILE [STRATEGY]`, ``arguments(for:)``), and
/// the child's side, which loads that scenario and serves its runs (``serve(_:wording:crashExitCode:internalErrorExitCode:)``,
/// over the engine's ``IsolatedWorker``). The child is a tool built with `BGSimCommands` (bgsim,
/// or a user's own): ``ScenarioPlan`` starts its workers this way for `bgsim fuzz --isolate`,
/// `bgsim check` and ``WorkloadCampaign/isolation`` alike.
///
/// ```swift
/// ScenarioWorker.arguments(for: scenario.forRun(0))
/// // ["_isolated-worker", "/repo/Scenarios/token-correct-ios17.json", "random"]
/// ScenarioWorker.Request(["/repo/Scenarios/token-correct-ios17.json", "random"])?.strategy   // .random
/// ```
///
/// Contract: the protocol is internal to one build (parent and child are the same executable);
/// the scenario file travels as an absolute path, and the run's exploration strategy only when
/// it replaces the file's (``Scenario/strategyOverride``).
package enum ScenarioWorker {
    /// The hidden command that makes a process a worker.
    package static let commandName = "_isolated-worker"

    /// The arguments that make a child a worker for `scenario` (one phase's scenario).
    package static func arguments(for scenario: Scenario) -> [String] {
        let file = scenario.file.hasPrefix("/") ? scenario.file
            : FileManager.default.currentDirectoryPath + "/" + scenario.file
        // An exploration strategy that replaces the file's travels as a second argument.
        return [commandName, file] + (scenario.strategyOverride.map { [$0.rawValue] } ?? [])
    }

    /// What a worker's arguments (after the command name) ask for.
    package struct Request: Equatable {
        package var file: String
        package var strategy: ExplorationStrategy?

        /// nil unless the arguments are one scenario file and, optionally, a strategy's name.
        package init?(_ arguments: [String]) {
            let strategy = arguments.count == 2 ? ExplorationStrategy(rawValue: arguments[1]) : nil
            guard arguments.count == 1 || strategy != nil else { return nil }
            file = arguments[0]
            self.strategy = strategy
        }
    }

    /// What a worker does first: when a parent started it, it dies with that parent, even in a
    /// run that never yields (``ParentLifeline``), and ignores SIGINT and SIGTERM: Ctrl-C
    /// reaches the whole process group, and the parent, which stops gracefully, ends its
    /// children itself.
    package static func attachToParent() {
        if ParentLifeline.watch(exitCode: 0) {
            for number in [SIGINT, SIGTERM] { signal(number, SIG_IGN) }
        }
    }

    /// Serves runs of `scenario` (its file loaded, its ``Request/strategy`` applied) until stdin
    /// ends: installs the crash handler in the tool's words, then answers run requests
    /// (``IsolatedWorker/serve(_:banner:)``). Returns the process's exit code: 0 at the end of
    /// its input, 65 for a request it cannot read; a crash in a run ends the process with
    /// `crashExitCode` after writing the run's choices.
    package static func serve(_ scenario: Scenario, wording: CrashWording, crashExitCode: Int32,
                              internalErrorExitCode: Int32) -> Int32 {
        CrashSignals.installIfNeeded(exitCode: crashExitCode, wording: wording,
                                     internalErrorExitCode: internalErrorExitCode)
        let banner = CrashBanner(run: "an isolated run of scenario \(scenario.name)", replay: "(the parent prints it)")
        // Off the main thread, as a campaign's runs (OffMainThread), on one thread for all the runs.
        return OffMainThread.run { IsolatedWorker.serve(SimulationTarget(spec: scenario.runSpec), banner: banner) }
    }
}
