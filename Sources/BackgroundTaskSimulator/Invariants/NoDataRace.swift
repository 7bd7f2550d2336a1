import DeterministicSimulation

/// `no-data-race`: no two accesses to the same shared state are unordered with at least one of
/// them a write. Judged by happens-before over the run's jobs (every queue hand-off, `sync`,
/// serial queue, lock, semaphore, task and main-actor hop the engine performs: see
/// ``DeterministicSimulation/Scheduler/enableRaceDetection(checkingPlainAccesses:)``), so it is reported in the run
/// where both accesses happen, even when their order in that run was the harmless one.
///
/// ```swift
/// // In a workload: a race (the worker's write and main's read are not ordered).
/// workers.async { didComplete = true }
/// main.async { if !didComplete { retry() } }   // enqueued by someone else, not by the worker
/// // Ordered: the worker hands the result to main itself.
/// workers.async { let done = true; main.async { didComplete = done } }
/// ```
///
/// On a device: unordered accesses to a plain stored property are a data race, which Swift
/// leaves undefined (torn or stale values, and for references a double release that corrupts the
/// heap; ThreadSanitizer reports the same pairs). The main thread and a background queue give no
/// ordering by themselves, and the expiration handler always runs on the main thread, so work on
/// another thread must be coordinated with it (A1.4, A3.1).
///
/// Excuses nothing: a race is the app's own code, whatever the environment did.
///
/// Contract: reports each `threads.race` event (the device records one when the engine finds a
/// race, at the second access, naming both accesses).
final class NoDataRace: EventFilteringChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .dataRace(let race) = event else { return nil }
        return "a data race on shared state: \(race)"
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .dataRace: true
        default: false
        }
    }
}
