import DeterministicSimulation

/// `request-failure-handled`: a work item is not finished as done while its last network request
/// failed or is still in flight. A lost connection (`networkConnectionLost`: the app was
/// suspended, or the network went away), no connection or a timeout is not a success: the data
/// may never have reached the server (Apple QA1941), so the work is retried or cancelled, never
/// reported done. Finishing while the request is still in flight claims a success not yet known.
///
/// Excuses nothing, and needs no excuse: the environment makes a request fail (a lost network, a
/// suspension), but what is judged is the app's decision afterwards to finish the work as done.
///
/// ```swift
/// // Caught: a lost connection counted as delivered.
/// if case .failure(.networkConnectionLost) = result { work.finish() }
/// ```
final class RequestFailureHandled: EventFilteringChecker {
    /// The last outcome of each work item's requests ("start", "success" or an error name).
    private var lastOutcome: [(work: Int, name: String, outcome: String)] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .networkRequest(_, let name, let work, let outcome) where work != 0:
            if let index = lastOutcome.firstIndex(where: { $0.work == work }) {
                lastOutcome[index] = (work, name, outcome)
            } else {
                lastOutcome.append((work, name, outcome))
            }
        case .workFinished(let id, let workName, let cancelled):
            // Most work makes no request: an empty list answers without a search.
            guard !lastOutcome.isEmpty, let index = lastOutcome.firstIndex(where: { $0.work == id }) else { return nil }
            let last = lastOutcome.remove(at: index)
            guard !cancelled, last.outcome != "success" else { return nil }
            if last.outcome == "start" {
                return "work '\(workName)' was finished at \(time) while its request '\(last.name)' was still in "
                    + "flight: finish it from the request's completion, after a success"
            }
            return "work '\(workName)' was finished at \(time) after its request '\(last.name)' failed with "
                + "\(last.outcome): the server may never have received it; keep it and retry (or cancel the work)"
        case .processLaunched:
            lastOutcome = []
        default:
            break
        }
        return nil
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .networkRequest, .workFinished, .processLaunched: true
        default: false
        }
    }
}
