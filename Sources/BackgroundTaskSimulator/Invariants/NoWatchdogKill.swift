import DeterministicSimulation

/// `no-watchdog-kill`: the simulated watchdog never kills the app (0x8badf00d: A3.5, A7.1, A10.1,
/// C4.6).
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
