import DeterministicSimulation

/// `push-completion-called-once`: every silent push delivered to the app has its fetch
/// completion handler called exactly once, within the push's runtime (D2: "up to 30 seconds …
/// or your app will be terminated"). A second call is the app's bug on some path (a missing
/// `return` after an early completion); no call in time (`push.expire`) is a path that forgot
/// it (an error branch, a network failure) and gets the app killed in the background. A push
/// whose process the system ended first (a jetsam, a force-quit) is not the app's fault: the
/// push expires only while the process that received it lives (``SilentPushService``), so a
/// process ended before its handler ran, or while it worked, is excused.
///
/// ```swift
/// // Caught: the failure path never calls the completion handler.
/// network.request("fetch") { result in
///     guard case .success = result else { return }
///     completionHandler(.newData)
/// }
/// ```
final class PushCompletionCalledOnce: EventFilteringChecker {
    /// Pushes whose handler was called once so far: number and result.
    private var completed: [(push: Int, result: String, time: VirtualTime)] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .pushCompleted(let push, let result, let repeated):
            guard repeated else {
                completed.append((push, result, time))
                return nil
            }
            let first = completed.first { $0.push == push }
            let earlier = first.map { " (first with .\($0.result) at \($0.time))" } ?? ""
            return "the fetch completion handler of silent push \(push) was called a second time at \(time) "
                + "with .\(result)\(earlier): call it exactly once on every path (return after calling it early)"
        case .pushExpired(let push, let terminates):
            let consequence = terminates ? "; the system terminated the app" : ""
            return "the fetch completion handler of silent push \(push) was not called within its runtime "
                + "(expired at \(time)\(consequence)): call it on every path, errors and network failures "
                + "included (.failed), as soon as the work ends"
        default:
            return nil
        }
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .pushCompleted, .pushExpired: true
        default: false
        }
    }
}
