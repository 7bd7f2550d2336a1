import Synchronization

/// Keeps the completion handlers the system hands to
/// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` and calls each exactly
/// once, on the main queue, once its session's events are delivered (rule D1).
///
/// When a background `URLSession`'s transfers finish while the app is suspended or not running,
/// iOS wakes or relaunches the app and passes a completion handler; it must be called after the
/// session's delegate got `urlSessionDidFinishEvents(forBackgroundURLSession:)`, on the main
/// thread (it is UIKit's), exactly once. The usual code keeps it in one optional property: a
/// second wake overwrites the first wake's handler (which is then never called), and a delegate
/// that gets `urlSessionDidFinishEvents` before the app delegate stored the handler finds nothing
/// to call. This store does neither.
///
/// ```swift
/// let sessionCompletions = BackgroundSessionCompletion(mainQueue: DispatchWorkQueue(.main))
///
/// func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
///                  completionHandler: @escaping () -> Void) {
///     sessionCompletions.store(completionHandler, forSession: identifier)
///     _ = uploads.session   // recreates URLSessionConfiguration.background(withIdentifier: identifier)
/// }
///
/// func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
///     sessionCompletions.sessionDidFinishEvents(session.configuration.identifier!)
/// }
/// ```
///
/// Contract:
/// - Handlers are kept per session identifier, in the order stored; every handler stored is
///   called exactly once, asynchronously on `mainQueue`, never inside ``store(_:forSession:)`` or
///   ``sessionDidFinishEvents(_:)``.
/// - ``sessionDidFinishEvents(_:)`` calls every handler stored for that identifier so far. If none
///   is stored yet (the delegate finished before the app delegate stored it), the next
///   ``store(_:forSession:)`` for that identifier calls its handler at once; only that one.
/// - Thread-safe: the two calls may race from any threads (the session's delegate queue and the
///   main thread). O(number of sessions) per call.
public final class BackgroundSessionCompletion: Sendable {
    private struct Session {
        let identifier: String
        var handlers: [@Sendable () -> Void] = []
        /// `urlSessionDidFinishEvents` came with no handler stored: the next store calls its own.
        var finishedWithoutHandler = false
    }

    private let sessions = Mutex<[Session]>([])
    private let mainQueue: any WorkQueue

    /// A store whose handlers are called on `mainQueue` (`DispatchWorkQueue(.main)` in an app).
    public init(mainQueue: any WorkQueue) {
        self.mainQueue = mainQueue
    }

    /// Keeps `completionHandler` for the session `identifier` (call it from
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`).
    public func store(_ completionHandler: @escaping @Sendable () -> Void, forSession identifier: String) {
        let due: [@Sendable () -> Void] = sessions.withCriticalSection { sessions in
            let index = Self.index(of: identifier, in: &sessions)
            guard sessions[index].finishedWithoutHandler else {
                sessions[index].handlers.append(completionHandler)
                return []
            }
            sessions[index].finishedWithoutHandler = false
            return [completionHandler]
        }
        callOnMain(due)
    }

    /// The session `identifier` delivered its events (call it from
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`): its stored handlers are called.
    public func sessionDidFinishEvents(_ identifier: String) {
        let due: [@Sendable () -> Void] = sessions.withCriticalSection { sessions in
            let index = Self.index(of: identifier, in: &sessions)
            let handlers = sessions[index].handlers
            sessions[index].handlers = []
            sessions[index].finishedWithoutHandler = handlers.isEmpty
            return handlers
        }
        callOnMain(due)
    }

    /// How many handlers of the session `identifier` wait for its events.
    public func pendingCount(forSession identifier: String) -> Int {
        sessions.withCriticalSection { sessions in
            sessions.first { $0.identifier == identifier }?.handlers.count ?? 0
        }
    }

    private func callOnMain(_ handlers: [@Sendable () -> Void]) {
        for handler in handlers { mainQueue.async(handler) }
    }

    /// The position of `identifier`'s record, made if new.
    private static func index(of identifier: String, in sessions: inout [Session]) -> Int {
        if let found = sessions.firstIndex(where: { $0.identifier == identifier }) { return found }
        sessions.append(Session(identifier: identifier))
        return sessions.count - 1
    }
}
