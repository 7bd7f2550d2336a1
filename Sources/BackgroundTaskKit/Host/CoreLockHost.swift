import Foundation

/// A host that BackgroundTaskKit calls while it holds one of its own locks: the base of
/// ``BackgroundTaskHost`` and ``TaskSchedulerHost``.
///
/// The core calls a host under its lock on purpose where the order matters: a token's
/// `endBackgroundTask` reaches the host before a racing expiration handler can look at the token
/// (A3.2), a repeating refresh submits its next request before a racing expiry completes the task
/// (C2.1, C4.6). Such a stretch is wrapped in ``whileCoreHoldsLock(_:)``. A host on real threads
/// has nothing to do there (the default runs `body`). A host that switches its callers' threads
/// itself, as the simulator does, must not switch away from the caller inside: the thread it
/// switched to could wait for the same lock, on the one OS thread allowed to run.
///
/// ```swift
/// final class MyHost: BackgroundTaskHost {   // a host on real threads: nothing to write
///     ...
/// }
///
/// extension SimulatedApplication {            // the simulator: no preemption in there
///     public func whileCoreHoldsLock<Result>(_ body: () -> Result) -> Result {
///         scheduler.withPreemptionDeferred(body)
///     }
/// }
/// ```
///
/// Contract: the core calls it only around its own critical sections that call this host (or
/// an app's callback), and `body` runs exactly once, synchronously, on the calling thread.
/// Calls nest (a token ended inside a holder's section). A conformer must not block in it.
public protocol CoreLockHost: AnyObject, Sendable {
    /// Runs `body`, a critical section of BackgroundTaskKit's own that calls this host.
    func whileCoreHoldsLock<Result>(_ body: () -> Result) -> Result

    /// Runs `body`, in which a token begins its task and records the identifier, so that an
    /// expiration handler the system calls on another thread meanwhile can wait for it with
    /// ``waitForCoreBegins()``. Once the background time is spent, iOS calls a new task's handler
    /// on main at once (A3.4), possibly before `beginBackgroundTask` has returned on the thread
    /// that called it; the handler must still end the task before it returns (A1.4, A3.2).
    /// Default: `body` holds the process's begin lock, a recursive lock (a host may call the
    /// handler inline, on the thread inside `beginBackgroundTask`). A host that switches its
    /// callers' threads itself, as the simulator does, must not block its one running OS thread
    /// on it: it records who is beginning and makes the waiter wait its own way.
    func whileCoreBegins<Result>(_ body: () -> Result) -> Result

    /// Returns once no other thread is inside ``whileCoreBegins(_:)``: a token's expiration
    /// handler calls it before it looks at its token. Called inline, from inside the caller's own
    /// ``whileCoreBegins(_:)``, it returns at once. Default: takes and releases the begin lock.
    func waitForCoreBegins()
}

extension CoreLockHost {
    /// Runs `body`: a host on real threads has nothing to add.
    public func whileCoreHoldsLock<Result>(_ body: () -> Result) -> Result { body() }

    /// Runs `body` holding the process's begin lock.
    public func whileCoreBegins<Result>(_ body: () -> Result) -> Result { CoreBeginLock.shared.withLock(body) }

    /// Takes and releases the process's begin lock.
    public func waitForCoreBegins() { CoreBeginLock.shared.withLock {} }
}

/// The process's begin lock (``CoreLockHost/whileCoreBegins(_:)``'s default): held across every
/// token's `beginBackgroundTask` and the record of its identifier, and taken by every expiration
/// handler before it looks at its token. Recursive; never held across the client's code.
enum CoreBeginLock {
    static let shared = NSRecursiveLock()
}
