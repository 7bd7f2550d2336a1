import DeterministicSimulation

/// `no-watchdog-kill`: the simulated watchdog never kills the app (0x8badf00d: A3.5, A7.1, A10.1,
/// C4.6).
///
/// Excuses a watchdog the debugger suppressed (A7.3: no kill happens). Needs no other excuse: a
/// watchdog kills for tasks or BGTasks left open at their deadline or a main thread blocked past
/// its limit (A3.5, A7.1, A10.1), each the app's code; an early expiry or a BGTask expiry calls the
/// app's handlers first, and since the expiration callout runs behind a launch handler queued
/// before it (C4.4), a task expired before its handler's first line still gets its handler.
final class NoWatchdogKill: EventFilteringChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .terminated(.watchdog(let detail), _) = event else { return nil }
        return "the watchdog killed the app at \(time) (0x8badf00d): \(detail)"
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .terminated: true
        default: false
        }
    }
}
