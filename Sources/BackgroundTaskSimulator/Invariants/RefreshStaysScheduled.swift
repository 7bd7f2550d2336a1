import DeterministicSimulation

/// `refresh-stays-scheduled`: a repeating refresh is resubmitted from its launch handler on
/// every path, so the chain never stops (C3.6: a launch consumes the request; C4.6). Judged when
/// each such task completes (was a new request submitted, or at least attempted, since the
/// launch?) and, as a liveness check, at the end of the run (is one pending?).
final class RefreshStaysScheduled: EventFilteringChecker {
    private let identifiers: [String]
    private var pending: [String] = []
    /// Launched tasks of a repeating identifier and whether a resubmission was attempted since.
    private var awaiting: [(task: Int, identifier: String, attempted: Bool)] = []
    private var chainStarted: [String] = []
    private var lastSubmitFailed: [String] = []

    init(identifiers: [String]) { self.identifiers = identifiers }

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .requestSubmitted(let identifier, _, let error):
            guard identifiers.contains(identifier) else { return nil }
            for index in awaiting.indices where awaiting[index].identifier == identifier {
                awaiting[index].attempted = true
            }
            lastSubmitFailed.removeAll { $0 == identifier }
            if error == nil {
                if !pending.contains(identifier) { pending.append(identifier) }
                if !chainStarted.contains(identifier) { chainStarted.append(identifier) }
            } else {
                lastSubmitFailed.append(identifier)
            }
        case .requestCancelled(let identifier):
            if identifier == "*" { pending = [] } else { pending.removeAll { $0 == identifier } }
            chainStarted.removeAll { identifier == "*" || $0 == identifier }
        case .bgTaskLaunched(let identifier, let task, _):
            guard identifiers.contains(identifier) else { return nil }
            pending.removeAll { $0 == identifier }
            awaiting.append((task, identifier, false))
        case .bgTaskCompleted(let identifier, let task, _, let repeated):
            guard !repeated, let index = awaiting.firstIndex(where: { $0.task == task }) else { return nil }
            let entry = awaiting.remove(at: index)
            if !entry.attempted {
                return "refresh task \(task) (\(identifier)) completed at \(time) without submitting the next "
                    + "request: the chain of refreshes stops; resubmit at the start of the launch handler"
            }
        case .terminated:
            awaiting = []
        default:
            break
        }
        return nil
    }

    func finish(at time: VirtualTime, facts: RunFacts) -> [String] {
        identifiers.compactMap { identifier in
            guard chainStarted.contains(identifier), !pending.contains(identifier),
                !lastSubmitFailed.contains(identifier), !awaiting.contains(where: { $0.identifier == identifier })
            else { return nil }
            return "no \(identifier) refresh request is pending at the end of the run (\(time)): "
                + "the repeating refresh stopped"
        }
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .requestSubmitted, .requestCancelled, .bgTaskLaunched, .bgTaskCompleted, .terminated: true
        default: false
        }
    }
}
