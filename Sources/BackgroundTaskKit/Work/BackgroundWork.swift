/// Run a closure in the background under a background task, and hop back to the main queue:
/// what Backgroundable's `inTheBackground` / `onTheMainThread` set out to be, on the host's
/// queues so it runs the same on a device and in the simulator.
///
/// ```swift
/// let work = BackgroundWork(host: app)
/// work.inTheBackground(name: "thumbnails") {
///     let images = thumbnails.render()
///     work.onTheMainThread { gallery.show(images) }
/// }
/// ```
///
/// Contract: ``inTheBackground(name:onExpiration:_:)`` begins the task *before* it enqueues
/// the closure (so work enqueued just as the app leaves the foreground is covered while it
/// waits) and ends it when the closure returns, or on expiry, whichever is first.
public struct BackgroundWork: Sendable {
    /// The app: background tasks and queues.
    public let host: any BackgroundTaskHost & ExecutionHost

    /// Work helpers over `host`.
    public init(host: any BackgroundTaskHost & ExecutionHost) { self.host = host }

    /// Runs `work` on the host's background queue under a background task named `name`.
    ///
    /// - Parameters:
    ///   - onExpiration: runs on the main queue if time runs out first, before the task ends.
    ///     The closure keeps running unprotected after that, so make it stop (a cancellation
    ///     flag it checks) here.
    /// - Returns: the task's token, to inspect ``BackgroundTaskToken/state``; you need not keep it.
    @discardableResult
    public func inTheBackground(
        name: String, onExpiration: (@Sendable () -> Void)? = nil,
        _ work: @escaping @Sendable () -> Void
    ) -> BackgroundTaskToken {
        let task = BackgroundTaskToken(name: name, host: host, onExpiration: onExpiration)
        host.backgroundQueue.async {
            work()
            task.invalidate()
        }
        return task
    }

    /// Runs `work` on the host's main queue, later (never inside this call).
    public func onTheMainThread(_ work: @escaping @Sendable () -> Void) {
        host.mainQueue.async(work)
    }
}
