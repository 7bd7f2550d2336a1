import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation

/// How long the shrinker takes on each planted-bug scenario of `Scenarios/`, and how far it gets:
/// the first failure of the scenario's campaign (as `fuzz` and `check` find it), shrunk while
/// its expected invariant stays violated.
///
/// ```swift
/// for row in ShrinkTiming.measureAll(in: "Scenarios") { print(row.scenario, row.shrunkActions, row.shrinkSeconds) }
/// ```
///
/// Contract: everything but ``shrinkSeconds`` and ``cpuSeconds`` is deterministic; a scenario whose
/// campaign does not find its bug has no row. Timing uses the wall clock and the process's CPU
/// clock here, outside simulation code: on a loaded machine (other builds) the wall clock counts
/// the time the shrink waited for a core, the CPU clock only the time it ran (all threads: a
/// threaded run hands its baton between OS threads), the figure for the 1 s target under load.
struct ShrinkTiming: Sendable {
    var scenario: String
    var invariant: String
    var originalActions: Int
    var shrunkActions: Int
    var originalEvents: Int
    var shrunkEvents: Int
    var attempts: Int
    /// Candidates actually replayed (``ShrinkResult/replays``).
    var replays: Int
    /// Wall-clock seconds of the shrink alone (finding the run not included).
    var shrinkSeconds: Double
    /// CPU seconds of the process during the shrink (every thread; `nil` where unavailable).
    var cpuSeconds: Double?

    /// One row per planted-bug scenario in `directory`, in file order; none if it cannot be read.
    static func measureAll(in directory: String) -> [ShrinkTiming] {
        guard let scenarios = try? ScenarioLoader.loadAll(in: directory) else { return [] }
        return scenarios.compactMap(measure)
    }

    static func measure(_ scenario: Scenario) -> ShrinkTiming? {
        // A crash or hang cannot be shrunk in this process (bench measures in process).
        guard case .violation = scenario.expectation, !scenario.needsIsolation else { return nil }
        // Find first, untimed (the same run shrinkPlantedBug finds), then time the shrink alone.
        guard let found = scenario.shrinkPlantedBug(options: ShrinkOptions(maxAttempts: 0)) else { return nil }
        let target = SimulationTarget(spec: scenario.runSpec)
        let source = ChoiceSource(seed: found.seed)
        _ = target.run(choices: source, keepTrace: false)
        let stopwatch = CPUStopwatch()
        let shrink = Shrinker.shrink(source.recorded, target: target, while: found.invariant)
        let elapsed = stopwatch.wallSeconds
        let cpu = stopwatch.cpuSeconds
        return ShrinkTiming(scenario: scenario.name, invariant: found.invariant,
                            originalActions: found.originalActionCount, shrunkActions: shrink.actionCount,
                            originalEvents: found.originalEventCount, shrunkEvents: shrink.eventCount,
                            attempts: shrink.attempts, replays: shrink.replays, shrinkSeconds: elapsed, cpuSeconds: cpu)
    }
}
