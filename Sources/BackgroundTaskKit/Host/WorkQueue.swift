/// A queue that runs work: `DispatchQueue` on Apple platforms, a simulated queue in the simulator.
///
/// ```swift
/// host.mainQueue.async { updateBadge() }
/// host.makeSerialQueue(label: "uploads").asyncAfter(.seconds(2)) { retryUpload() }
/// ```
///
/// Contract: `async` runs `work` later, never inside the call; a serial queue runs its work one
/// item at a time in FIFO order; `asyncAfter` runs no earlier than `delay` from now.
public protocol WorkQueue: AnyObject, Sendable {
    /// A name for traces and debugging.
    var label: String { get }

    /// Enqueues `work` to run as soon as the queue allows.
    func async(_ work: @escaping @Sendable () -> Void)

    /// Enqueues `work` to run after `delay` (a negative or zero delay means "now").
    func asyncAfter(_ delay: Duration, _ work: @escaping @Sendable () -> Void)
}

/// Where BackgroundTaskKit runs work: the main queue and background queues.
///
/// Contract: ``mainQueue`` is the queue expiration handlers and lifecycle notifications arrive on.
/// ``makeSerialQueue(label:)`` gives a new serial queue each call; ``backgroundQueue`` is a shared
/// concurrent queue (the global queue).
public protocol ExecutionHost: AnyObject, Sendable {
    /// The main queue.
    var mainQueue: any WorkQueue { get }
    /// A shared concurrent background queue (`DispatchQueue.global()`).
    var backgroundQueue: any WorkQueue { get }
    /// A new serial queue.
    func makeSerialQueue(label: String) -> any WorkQueue
}

/// Everything an app's background work talks to, apart from BGTaskScheduler.
public typealias ApplicationHost = BackgroundTaskHost & LifecycleHost & ExecutionHost
