import DeterministicSimulation

/// `background-session-recreated`: when the system wakes or relaunches the app for a background
/// `URLSession`'s events (D1), the app makes a session with that same identifier in that
/// process, so the events are delivered (`urlSessionDidFinishEvents`) before the wake's time
/// runs out. "Use the provided identifier to create a new URLSessionConfiguration and
/// URLSession object": a session made with another identifier (one new per launch, with a UUID
/// in it) or not made at all on the relaunch path never gets them.
///
/// Excuses a wake whose process the system ended before the app could make its session (a kill
/// before the first line of `didFinishLaunching` or the events handler): a wake expires only while
/// its process lives (``BackgroundURLSessionService``).
///
/// ```swift
/// // Caught: a new identifier per launch; the relaunch's events wait for "uploads-1" forever.
/// session = context.backgroundURLSession(identifier: "uploads-\(launchID)", …)
/// ```
final class BackgroundSessionRecreated: EventFilteringChecker {
    /// Session identifiers made by the current process.
    private var made: [String] = []
    private var process = 0

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        if facts.process != process {
            process = facts.process
            made = []
        }
        switch event {
        case .backgroundSessionEvents(let session, _, "create"):
            if !made.contains(session) { made.append(session) }
            return nil
        case .backgroundSessionExpired(let session, let wake, false, let terminates):
            let consequence = terminates ? "; the system terminated the app" : ""
            let others = made.isEmpty ? "no background session was made"
                : "sessions made: " + made.map { "\"\($0)\"" }.joined(separator: ", ")
            return "the system woke the app for the events of background session \"\(session)\" (wake \(wake)) "
                + "but they were never delivered: no session with that identifier in process \(process) "
                + "before the wake's time ran out at \(time) (\(others))\(consequence): recreate the session with "
                + "URLSessionConfiguration.background(withIdentifier: \"\(session)\") (a fixed identifier) at launch "
                + "or in handleEventsForBackgroundURLSession"
        default:
            return nil
        }
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .backgroundSessionEvents, .backgroundSessionExpired, .processLaunched: true
        default: false
        }
    }
}
