import Synchronization

/// Holds at most one running ``BackgroundTaskToken`` for an owner that needs one "while it has work":
/// the background operation queue and the in-flight work tracker.
///
/// Contract: ``reconcile(_:)`` reads the owner's demand under the holder's lock and begins or
/// ends the task to match, so two threads reconciling at once cannot both begin a task, and a
/// task is never ended while the demand that a concurrent caller just registered is pending.
/// Lock order: holder, then the owner's state lock, then the token's lock. The expiration path
/// never takes the holder's lock, so a host that calls the expiration handler while `begin`
/// is in progress cannot deadlock it.
final class TaskHolder: Sendable {
    private let name: String
    private let host: any BackgroundTaskHost
    private let held = Mutex<BackgroundTaskToken?>(nil)
    private let expirationHandler = Mutex<(@Sendable () -> Void)?>(nil)

    init(name: String, host: any BackgroundTaskHost) {
        self.name = name
        self.host = host
    }

    /// Sets what runs (before the task ends) when the held task expires.
    func onExpiration(_ handler: @escaping @Sendable () -> Void) {
        expirationHandler.withCriticalSection { $0 = handler }
    }

    /// Begins a task if `wanted()` and none is running; ends the held one if not `wanted()`.
    ///
    /// A refused begin counts as an immediate expiry (as for ``BackgroundTaskToken``): the
    /// handler runs once, after the holder's lock is released, since it may call back in (a
    /// work item finishing, which reconciles again).
    func reconcile(_ wanted: () -> Bool) {
        // The begin and the end reach the host under the holder's lock (``CoreLockHost``).
        let denied: (@Sendable () -> Void)? = host.whileCoreHoldsLock {
            held.withCriticalSection { task in
                if wanted() {
                    guard task?.isRunning != true else { return nil }
                    task?.invalidate()  // an expired or denied token: nothing to end; drop it
                    let handler = expirationHandler.withCriticalSection { $0 }
                    let token = BackgroundTaskToken(name: name, host: host, onExpiration: handler, expiresWhenDenied: false)
                    task = token
                    return token.state == .denied ? handler : nil
                } else if let current = task {
                    current.invalidate()
                    task = nil
                }
                return nil
            }
        }
        denied?()
    }

    /// True while a running task is held.
    var isHolding: Bool { held.withCriticalSection { $0?.isRunning ?? false } }
}
