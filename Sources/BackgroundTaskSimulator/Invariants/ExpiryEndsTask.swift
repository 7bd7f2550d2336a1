import DeterministicSimulation

/// `expiry-ends-task`: when the system calls expiration handlers, every outstanding task is ended
/// before the handlers return, so the app is never killed for it (A3.2, A3.6).
///
/// Excuses nothing, and needs no excuse: it judges what the app's handlers did once called, and an
/// expiry the environment brings early (A3.3) calls the same handlers; a process killed first
/// calls none.
final class ExpiryEndsTask: EventFilteringChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .expirationHandlersReturned(let open, _) = event, !open.isEmpty else { return nil }
        let tasks = open.map { facts.describeTask($0) }.joined(separator: ", ")
        return "\(tasks) still not ended after expiration handlers were called at \(time) (app \(facts.state)); "
            + "end the task inside its expiration handler, synchronously"
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .expirationHandlersReturned: true
        default: false
        }
    }
}
