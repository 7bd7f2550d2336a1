import DeterministicSimulation

/// `no-async-escape`: an async workload's Swift concurrency stays inside the run: no job reaches
/// Swift's global executor (`Task {}` or `Task.detached` without the run's executor preference),
/// no task is resumed from a real thread, no real main actor. Such a run is not reproducible,
/// so `bgsim replay` exits 3 for it.
///
/// ```swift
/// // In a workload: escapes (the task runs on Swift's global executor).
/// Task.detached { await uploader.flush() }
/// // Stays in the run: the run's executor, as `Task {}` would be on a device.
/// Task(executorPreference: context.taskExecutor) { await uploader.flush() }
/// ```
///
/// Excuses nothing, and needs no excuse: an escape is the workload's own code; no environment
/// action makes one.
///
/// Contract: reports each `async.escape` event (the device records them at the end of the run,
/// with the virtual time and simulated thread each was seen on).
final class NoAsyncEscape: EventFilteringChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .asyncEscape(let escape) = event else { return nil }
        return "the run's Swift concurrency escaped the simulator (the run is not reproducible): \(escape)"
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .asyncEscape: true
        default: false
        }
    }
}
