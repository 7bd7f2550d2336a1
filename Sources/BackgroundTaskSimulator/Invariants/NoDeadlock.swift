import DeterministicSimulation

/// `no-deadlock`: the app's threads never all wait for each other (a `sync` onto the caller's own
/// queue, a lock-order inversion, a semaphore nothing will signal). The run stops at the
/// deadlock; the message names each thread and what it waits for.
///
/// Excuses nothing, and needs no excuse: only the app's own threads wait on each other; the
/// system's work runs on its own queue and never waits for the app.
final class NoDeadlock: EventFilteringChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .deadlock(let threads) = event else { return nil }
        return "the app deadlocked at \(time): \(threads)"
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .deadlock: true
        default: false
        }
    }
}
