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
}

extension CoreLockHost {
    /// Runs `body`: a host on real threads has nothing to add.
    public func whileCoreHoldsLock<Result>(_ body: () -> Result) -> Result { body() }
}
