import BackgroundTaskKit

/// The chat outbox of ``LateRegisteredTaskOutbox`` done right: the task bookkeeping is confined
/// to the main thread, where expiration handlers run (A3.1). Each send begins its background task
/// and records it in one `mainQueue.sync` block, so a handler called because the begin came after
/// the expiry callout (A3.4) runs on main only after the id is recorded, finds it, cancels the send
/// and ends the task before it returns (A3.2); the send's completion ends the task on main too.
///
/// ```swift
/// mainQueue.sync {
///     let id = app.beginBackgroundTask(withName: "send-message") { outbox.endTask(for: message) }
///     outbox.record(message, task: id)
/// }
/// send(message)
/// mainQueue.sync { outbox.endTask(for: message) }
/// ```
///
/// Contract: only the main thread touches the table (its lock is never contended); the outbox
/// thread waits for main, never main for it, so the handler never waits for the outbox thread, which may be descheduled at any moment, even holding a lock
/// (A3.5). Taking a lock around a begin on the outbox thread instead would close the A3.4 window but
/// let the handler wait for that thread past the deadline.
///
/// Expected: passes every invariant.
final class RegisteredTaskOutbox: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the outbox guards its own state.
    private var outbox: ChatOutbox?

    func didFinishLaunching(_ context: WorkloadContext) {
        outbox = ChatOutbox(context) { outbox, message in Self.send(message, outbox, context) }
    }

    /// On the outbox queue: one message, under its own background task.
    private static func send(_ message: Int, _ outbox: ChatOutbox, _ context: WorkloadContext) {
        let app = context.application
        let main = app.mainQueue
        let granted = main.sync {
            let id = app.beginBackgroundTask(withName: "send-message") {
                outbox.endTask(for: message, app, cancel: true)
            }
            guard id != .invalid else { return false }  // refused (A2.1): the message waits in the outbox
            outbox.lock.withLock { outbox.record(message, task: id, work: context.startWork("send-message")) }
            return true
        }
        guard granted else { return }
        app.performBlockingWork(for: context.drawDuration(in: .milliseconds(200) ... .seconds(2)))
        main.sync { outbox.endTask(for: message, app, cancel: false) }
    }
}
