import DeterministicSimulation

/// `background-session-completion-called-once`: when the system wakes or relaunches the app for
/// a background `URLSession`'s events (D1), the completion handler of
/// `handleEventsForBackgroundURLSession` is called exactly once, on the main thread, after the
/// session's `urlSessionDidFinishEvents`, within ``OSProfile/backgroundSessionEventsRuntime``.
/// Called before the events, the app may be suspended with its completions undelivered and the
/// snapshot taken too early; called twice or on the wrong wake, some other wake's handler is
/// never called and its time runs out. A wake whose events were never delivered (the session not
/// recreated) is `background-session-recreated`'s; a wake whose process the system ended first is
/// not the app's fault: a wake expires only while its process lives (``BackgroundURLSessionService``).
///
/// ```swift
/// // Caught: "reconnected, done" before any event was delivered.
/// context.onBackgroundURLSessionEvents { identifier, completionHandler in
///     _ = makeSession(identifier)
///     completionHandler()
/// }
/// ```
final class BackgroundSessionCompletionCalledOnce: EventFilteringChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .backgroundSessionCompleted(let session, let wake, let onMain, let afterEvents, let repeated):
            let handler = "the completion handler of handleEventsForBackgroundURLSession for \"\(session)\" (wake \(wake))"
            if repeated {
                return "\(handler) was called a second time at \(time): call each wake's handler exactly once "
                    + "(keep one per wake and session, as BackgroundSessionCompletion does)"
            }
            if !afterEvents {
                return "\(handler) was called at \(time), before urlSessionDidFinishEvents: call it only after "
                    + "the session delivered its events (from urlSessionDidFinishEvents)"
            }
            if !onMain {
                return "\(handler) was called off the main thread at \(time): it is UIKit's, call it on the main queue"
            }
            return nil
        case .backgroundSessionExpired(let session, let wake, true, let terminates):
            let consequence = terminates ? "; the system terminated the app" : ""
            return "the completion handler of handleEventsForBackgroundURLSession for \"\(session)\" (wake \(wake)) "
                + "was not called within its time after urlSessionDidFinishEvents (expired at \(time)\(consequence)): "
                + "call the handler stored for that session from urlSessionDidFinishEvents"
        default:
            return nil
        }
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .backgroundSessionCompleted, .backgroundSessionExpired: true
        default: false
        }
    }
}
