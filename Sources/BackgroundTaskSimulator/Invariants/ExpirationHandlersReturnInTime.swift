import DeterministicSimulation

/// `expiration-handlers-return-in-time`: when the system calls the expiration handlers, they
/// return within its limit on their total time (A3.5: a few seconds; the profile's
/// `expirationHandlerWatchdog`). Handlers that do slow synchronous work (flushing a database,
/// waiting on a semaphore for an upload to cancel) get the app killed even if they end the task.
///
/// Reported when the handlers return; the watchdog kill that follows is `no-watchdog-kill`'s.
final class ExpirationHandlersReturnInTime: EventFilteringChecker {
    private let limit: VirtualDuration

    init(limit: VirtualDuration) {
        self.limit = limit
    }

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .expirationHandlersReturned(_, let elapsed) = event, elapsed > limit else { return nil }
        return "the expiration handlers returned at \(time) after running for \(elapsed), over the \(limit) the "
            + "system allows (app \(facts.state)); do only what ends the task in the handler and move slow "
            + "cleanup out of it"
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .expirationHandlersReturned: true
        default: false
        }
    }
}
