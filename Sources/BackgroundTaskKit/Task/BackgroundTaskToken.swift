import Synchronization

/// A UIKit background task as a value you hold: it begins when you create it and ends exactly
/// once, whichever comes first of ``invalidate()``, the release of the last reference, or the
/// system's expiration callout.
///
/// It is what `CFABackgroundTask` set out to be, with the expiry race closed: the task is ended
/// *inside* the system's expiration handler (reference A3.2, A3.6), after your own handler ran,
/// even when ``invalidate()`` is being called on another thread at the same moment.
///
/// ```swift
/// final class DraftSaver {
///     private let host: any BackgroundTaskHost
///     init(host: any BackgroundTaskHost) { self.host = host }
///
///     func save(_ draft: Draft) {
///         let task = BackgroundTaskToken(name: "save-draft", host: host) {
///             draft.cancelUpload()          // runs first, on the main queue
///         }                                 // then the task ends, inside the system's handler
///         draft.upload { _ in task.invalidate() }
///     }
/// }
/// ```
///
/// Contract:
/// - `init` calls `beginBackgroundTask(withName:expirationHandler:)` once, with `name`.
///   If the host refuses (returns ``BackgroundTaskIdentifier/invalid``, A2.1) the token is
///   ``State-swift.enum/denied``, nothing is ever ended, and the refusal counts as an immediate
///   expiry: `onExpiration` runs once, on the calling thread, before `init` returns, so the work
///   the task was to cover is cancelled or deferred the same way as on expiry (without a task the
///   app may be suspended under it).
/// - A begun task is ended exactly once: by the first ``invalidate()``, by `deinit`, or by the
///   expiration callout. Later calls do nothing. All of this is safe from any thread.
/// - On expiry, `onExpiration` runs at most once, and only if the task was still running; the
///   task has ended by the time the system's handler returns. The end call is made under the
///   token's lock, so an ``invalidate()`` racing the callout has also finished ending the task
///   when the callout returns.
/// - A token may be made on any thread. Once the background time is spent, the system calls the
///   expiration handler of a new task on main at once (A3.4), possibly before
///   `beginBackgroundTask` has returned on the thread making the token; that handler waits for
///   the begin to return, so the task is ended inside it all the same (A1.4: "you have to
///   coordinate that work with the expiry handler"): the begin and the record of its identifier
///   run in the host's ``CoreLockHost/whileCoreBegins(_:)``, and the handler calls
///   ``CoreLockHost/waitForCoreBegins()`` first. A host that calls the handler inline, on the
///   thread inside `beginBackgroundTask`, gets the task ended as soon as `beginBackgroundTask`
///   returns.
/// - Keep a reference while the work runs: a token released at once ends its task at once
///   (bug pattern P5). Capturing it in the work's completion closure is the usual way.
/// - Do not call ``invalidate()`` of this token from inside `onExpiration`: it is harmless
///   (the task ends either way) but unnecessary.
public final class BackgroundTaskToken: Sendable, CustomStringConvertible {
    /// Where a token is in its life.
    public enum State: Sendable, Equatable, CustomStringConvertible {
        /// Begun and not yet ended.
        case running
        /// Ended by ``BackgroundTaskToken/invalidate()`` or by the release of the token.
        case ended
        /// Ended by the system's expiration callout.
        case expired
        /// The host refused to begin it (`.invalid`); there was nothing to end.
        case denied

        public var description: String {
            switch self {
            case .running: "running"
            case .ended: "ended"
            case .expired: "expired"
            case .denied: "denied"
            }
        }
    }

    /// The name given to the system; it appears in its console messages.
    public let name: String
    /// The identifier the host returned; ``BackgroundTaskIdentifier/invalid`` when denied.
    public let identifier: BackgroundTaskIdentifier
    private let core: BackgroundTaskCore

    /// Begins a background task.
    ///
    /// - Parameters:
    ///   - name: a meaningful name ("upload-photos"); the system shows it in its warnings.
    ///   - host: the app (``UIKitApplicationHost`` on a device, a simulated or fake host in tests).
    ///   - onExpiration: runs on the host's main queue when time runs out, before the task is
    ///     ended; cancel or checkpoint the work here, quickly (A3.5).
    public convenience init(
        name: String, host: any BackgroundTaskHost, onExpiration: (@Sendable () -> Void)? = nil
    ) {
        self.init(name: name, host: host, onExpiration: onExpiration, expiresWhenDenied: true)
    }

    /// ``init(name:host:onExpiration:)``, where `expiresWhenDenied: false` leaves a refused
    /// begin to the caller: a helper that makes tokens under its own lock calls the handler
    /// after releasing it (the handler may call back into the helper).
    init(
        name: String, host: any BackgroundTaskHost, onExpiration: (@Sendable () -> Void)?,
        expiresWhenDenied: Bool
    ) {
        let core = BackgroundTaskCore(host: host, onExpiration: onExpiration)
        let identifier = host.whileCoreBegins {  // A1.4: a handler called meanwhile waits for this
            let identifier = host.beginBackgroundTask(withName: name) { core.expire() }
            core.didBegin(identifier)
            return identifier
        }
        // A refused begin is an immediate expiry for the client: the work it was to cover must
        // stop or be deferred, exactly as on expiry (outside the locks, like the callout's call).
        if identifier == .invalid, expiresWhenDenied { core.expireDenied() }
        self.name = name
        self.identifier = identifier
        self.core = core
    }

    /// The token's state now.
    public var state: State { core.state }

    /// True while the task is begun and not ended.
    public var isRunning: Bool { state == .running }

    /// Ends the task if it is still running. Idempotent and safe from any thread.
    ///
    /// - Returns: true only for the call that ended the task.
    @discardableResult
    public func invalidate() -> Bool { core.end() }

    public var description: String { "BackgroundTaskToken(\(name), id \(identifier), \(state))" }

    deinit { core.end() }
}

/// The shared state of a token: what the system's expiration handler captures. It is a separate
/// object so the handler does not keep the token alive (the token must be able to end its task
/// in `deinit`).
final class BackgroundTaskCore: Sendable {
    private enum Phase {
        /// `beginBackgroundTask` has not returned yet; `expired` records a callout that arrived
        /// before the identifier did (a host may call the handler at once, A3.4).
        case beginning(expired: Bool)
        case running(BackgroundTaskIdentifier)
        case ended
        case expired
        case denied
    }

    private let host: any BackgroundTaskHost
    private let onExpiration: (@Sendable () -> Void)?
    private let phase = Mutex(Phase.beginning(expired: false))
    private let userHandlerRan = AtomicFlag()

    init(host: any BackgroundTaskHost, onExpiration: (@Sendable () -> Void)?) {
        self.host = host
        self.onExpiration = onExpiration
    }

    var state: BackgroundTaskToken.State {
        phase.withCriticalSection { phase in
            switch phase {
            case .beginning, .running: .running
            case .ended: .ended
            case .expired: .expired
            case .denied: .denied
            }
        }
    }

    /// Records what `beginBackgroundTask` returned; a callout that came inline, before it
    /// returned, has the task ended now.
    func didBegin(_ identifier: BackgroundTaskIdentifier) {
        host.whileCoreHoldsLock {
            phase.withCriticalSection { phase in
                guard identifier != .invalid else {
                    phase = .denied  // A2.1: nothing was begun, so nothing may be ended (A5.2)
                    return
                }
                if case .beginning(expired: true) = phase {
                    host.endBackgroundTask(identifier)
                    phase = .expired
                } else {
                    phase = .running(identifier)
                }
            }
        }
    }

    /// A refused begin: the client's handler, once.
    func expireDenied() {
        if userHandlerRan.setIfClear() { onExpiration?() }
    }

    /// The system's expiration handler: the user's handler first, then the end, before returning.
    func expire() {
        host.waitForCoreBegins()  // a begin under way on another thread records its identifier first
        let live = phase.withCriticalSection { phase in
            switch phase {
            case .beginning, .running: true
            case .ended, .expired, .denied: false
            }
        }
        if live, userHandlerRan.setIfClear() { onExpiration?() }
        host.whileCoreHoldsLock {
            phase.withCriticalSection { phase in
                switch phase {
                case .running(let identifier):
                    host.endBackgroundTask(identifier)  // A3.2: inside the handler, synchronously
                    phase = .expired
                case .beginning:
                    phase = .beginning(expired: true)
                case .ended, .expired, .denied:
                    break
                }
            }
        }
    }

    /// Ends a running task; true for the call that did.
    @discardableResult
    func end() -> Bool {
        host.whileCoreHoldsLock {
            phase.withCriticalSection { phase in
                guard case .running(let identifier) = phase else { return false }
                // Under the lock on purpose: an expiry callout waiting for the lock returns only
                // after this end has reached the host.
                host.endBackgroundTask(identifier)
                phase = .ended
                return true
            }
        }
    }
}
