import DeterministicSimulation

/// `fetch-completion-called-once`: every background fetch (D3, iOS 7-12) has its completion
/// handler called exactly once, within its time (about 30 s): "executing this block tells the
/// system that it can move your app back to the suspended state", and an app that never calls it
/// is killed when the time is over. A fetch whose process the system ended first is not the
/// app's fault: the fetch expires only while the process it launched lives
/// (``BackgroundFetchService``), so a process ended before its handler ran is excused.
///
/// ```swift
/// // Caught: only the new-data path answers; no data and failures leave the system waiting.
/// if case .success = result, received > 0 { completionHandler(.newData) }
/// ```
final class FetchCompletionCalledOnce: EventFilteringChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .fetchCompleted(let fetch, let result, true):
            return "the completion handler of background fetch \(fetch) was called a second time at \(time) "
                + "with .\(result): call it exactly once on every path"
        case .backgroundFetch(let fetch, "expire"):
            return "the completion handler of background fetch \(fetch) was not called within its time "
                + "(expired at \(time)): call it on every path, with .noData or .failed too, or the app is killed"
        default:
            return nil
        }
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .fetchCompleted, .backgroundFetch: true
        default: false
        }
    }
}
