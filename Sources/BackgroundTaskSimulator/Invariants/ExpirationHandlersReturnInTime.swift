import DeterministicSimulation

/// `expiration-handlers-return-in-time`: when the system calls the expiration handlers, they
/// return within its limit on their total time (A3.5: a few seconds; the profile's
/// `expirationHandlerWatchdog`). Handlers that do slow synchronous work (flushing a database,
/// waiting on a semaphore for an upload to cancel) get the app killed even if they end the task.
///
/// Reported when the handlers return late (one simulated thread: the whole run waited for them),
/// or when the watchdog kills the app while they still run (simulated threads: the kill comes at
/// the limit, as on a device); the kill itself is also `no-watchdog-kill`'s.
///
/// Excuses nothing, and needs no excuse: the time judged is the app's handlers' own; a callout
/// cut short by a kill the app cannot prevent (a force-quit, jetsam) is forgotten, not judged.
final class ExpirationHandlersReturnInTime: EventFilteringChecker {
    private let limit: VirtualDuration
    /// When the current expiration callout began, until its handlers return.
    private var calloutStart: VirtualTime?

    init(limit: VirtualDuration) {
        self.limit = limit
    }

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .expirationCallout:
            calloutStart = time
        case .expirationHandlersReturned(_, let elapsed):
            calloutStart = nil
            guard elapsed > limit else { return nil }
            return "the expiration handlers returned at \(time) after running for \(elapsed), over the \(limit) the "
                + "system allows (app \(facts.state)); \(Self.advice)"
        case .terminated(.watchdog, _):
            guard let start = calloutStart else { return nil }
            calloutStart = nil
            guard time - start > limit else { return nil }
            return "the expiration handlers were still running at \(time), \(time - start) after the callout, when "
                + "the watchdog killed the app (limit \(limit); app \(facts.state)); \(Self.advice)"
        case .terminated:
            calloutStart = nil
        default:
            break
        }
        return nil
    }

    private static let advice = "do only what ends the task in the handler and move slow cleanup out of it"

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .expirationCallout, .expirationHandlersReturned, .terminated: true
        default: false
        }
    }
}
