/// A queue that runs work: `DispatchQueue` on Apple platforms, a simulated queue in the simulator.
///
/// ```swift
/// host.mainQueue.async { updateBadge() }
/// host.makeSerialQueue(label: "uploads").asyncAfter(.seconds(2)) { retryUpload() }
/// let cached = cacheQueue.sync { cache[key] }
/// ```
///
/// Contract: `async` runs `work` later, never inside the call; a serial queue runs its work one
/// item at a time in FIFO order; `asyncAfter` runs no earlier than `delay` from now; `sync` runs
/// `work` on the queue and returns once it has run.
public protocol WorkQueue: AnyObject, Sendable {
    /// A name for traces and debugging.
    var label: String { get }

    /// Enqueues `work` to run as soon as the queue allows.
    func async(_ work: @escaping @Sendable () -> Void)

    /// Enqueues `work` to run after `delay` (a negative or zero delay means "now").
    func asyncAfter(_ delay: Duration, _ work: @escaping @Sendable () -> Void)

    /// Runs `work` on this queue and waits until it has run, like `DispatchQueue.sync`.
    ///
    /// ```swift
    /// let granted = host.mainQueue.sync {   // from a background queue
    ///     taskID = host.beginBackgroundTask(withName: "send") { endTask() }
    ///     return taskID != .invalid
    /// }
    /// ```
    ///
    /// Contract, as GCD's: `work` runs exactly once before `sync` returns, one item at a time
    /// with the queue's other work when the queue is serial; it may run on the calling thread
    /// (GCD does so whenever it can, except on the main queue). A `sync` onto the serial queue
    /// the caller is already running on (`mainQueue.sync` from the main thread), or one that
    /// closes a cycle of threads waiting for each other, deadlocks: on a device the app hangs or
    /// traps; the simulator stops the run with `no-deadlock`; ``FakeHost`` records it in
    /// ``FakeHost/misuses``. Returns `work`'s result and throws what it throws.
    func sync<Result, Failure: Error>(_ work: () throws(Failure) -> Result) throws(Failure) -> Result
}

/// Where BackgroundTaskKit runs work: the main queue and background queues, and the locks,
/// semaphores and shared state that work on several queues uses.
///
/// ```swift
/// let uploads = host.makeSerialQueue(label: "uploads")
/// let pending = host.makeLock(name: "pending")
/// uploads.async { pending.withLock { queued.removeAll() } }
/// ```
///
/// Contract: ``mainQueue`` is the queue expiration handlers and lifecycle notifications arrive on.
/// ``makeSerialQueue(label:)`` gives a new serial queue each call; ``backgroundQueue`` is a shared
/// concurrent queue (the global queue). The synchronisation requirements have defaults for a host
/// whose queues run on OS threads (a `Mutex`, a `DispatchSemaphore`, plain storage, no scheduling
/// points: see `ExecutionHost+Synchronization.swift`); a host that runs queues on threads of its
/// own, as the simulator does, implements them all.
public protocol ExecutionHost: AnyObject, Sendable {
    /// The main queue.
    var mainQueue: any WorkQueue { get }
    /// A shared concurrent background queue (`DispatchQueue.global()`).
    var backgroundQueue: any WorkQueue { get }
    /// A new serial queue.
    func makeSerialQueue(label: String) -> any WorkQueue

    /// A new lock for state that several queues touch (``HostLock``).
    func makeLock(name: String) -> any HostLock

    /// A new counting semaphore starting at `value` (``HostSemaphore``).
    func makeSemaphore(name: String, value: Int) -> any HostSemaphore

    /// A new variable that several queues read and write, starting at `initialValue`
    /// (``SharedState``).
    func makeShared<Value: Sendable>(name: String, initialValue: Value) -> SharedState<Value>

    /// A point where the host may switch threads, for code that shares plain storage it cannot
    /// wrap in ``SharedState``: call it between the read and the write of a check-then-act.
    /// Does nothing on a device.
    func schedulingPoint()
}

/// Everything an app's background work talks to, apart from BGTaskScheduler.
public typealias ApplicationHost = BackgroundTaskHost & LifecycleHost & ExecutionHost
