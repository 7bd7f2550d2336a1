import DeterministicSimulation

/// `no-double-end`: no task id is ended twice, and no unknown or invalid id is ended (A5.2, A5.3).
///
/// Excuses nothing, and needs no excuse: only the app's own `endBackgroundTask` calls are judged,
/// and no environment action ends a task for it (an expiry calls the app's handler, a kill ends
/// the process and with it the ids, A2.5).
final class NoDoubleEnd: EventFilteringChecker {
    private var ended: [(id: Int, at: VirtualTime)] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .processLaunched:
            ended = []
        case .taskEnded(let id, _):
            // Appended to the list taken out (see RunFacts.takeTasks()): no run-time exclusivity
            // check per end.
            var list = ended
            ended = []
            list.append((id, time))
            ended = list
        case .endedUnknownTask(let id):
            let what: String
            if id == 0 {
                what = "endBackgroundTask(.invalid) was called"
            } else if let first = ended.last(where: { $0.id == id }) {
                what = "endBackgroundTask(\(id)) ended task \(id) a second time (first ended at \(first.at))"
            } else {
                what = "endBackgroundTask(\(id)) ended a task that was never begun"
            }
            return "\(what) at \(time) (app \(facts.state)): \"Can't end BackgroundTask: no background task "
                + "exists with identifier \(id)\"; set the stored id to .invalid once ended"
        default:
            break
        }
        return nil
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .processLaunched, .taskEnded, .endedUnknownTask: true
        default: false
        }
    }
}
