import BackgroundTaskKit

/// A chat app's outbox: when the user leaves, the messages still queued are sent one by one on a
/// serial "outbox" queue (``ChatOutbox``), each send wrapped in its own background task, the way
/// networking helpers wrap every request. The task ids are kept per message in a table under a
/// lock, which the send's completion and the message's expiration handler both use, so the author
/// considered it thread-safe; but the id is recorded only after `beginBackgroundTask` has
/// returned to the outbox thread.
///
/// ```swift
/// let id = app.beginBackgroundTask(withName: "send-message") { outbox.endTask(for: message) }
/// outbox.lock.withLock { outbox.record(message, task: id) }   // too late if the handler ran
/// ```
///
/// The race (A3.4): a send that begins after the expiry callout gets its expiration handler
/// called at once, on main, while `beginBackgroundTask` is returning to the outbox thread. When
/// main runs first, the handler finds no id for its message and returns without ending the task
/// (A3.2, A3.6); the send's completion ends it later, or the watchdog kills the app first (A7.1).
/// With one thread the begin always returns, and the id is recorded, before main runs the
/// handler, so the run passes (`concurrency` off).
///
/// Expected: `expiry-ends-task`.
final class LateRegisteredTaskOutbox: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the outbox guards its own state.
    private var outbox: ChatOutbox?

    func didFinishLaunching(_ context: WorkloadContext) {
        outbox = ChatOutbox(context) { outbox, message in Self.send(message, outbox, context) }
    }

    /// On the outbox queue: one message, under its own background task.
    private static func send(_ message: Int, _ outbox: ChatOutbox, _ context: WorkloadContext) {
        let app = context.application
        let id = app.beginBackgroundTask(withName: "send-message") {
            outbox.endTask(for: message, app, cancel: true)
        }
        let work = context.startWork("send-message")
        outbox.lock.withLock { outbox.record(message, task: id, work: work) }  // the bug: after begin returned
        app.performBlockingWork(for: context.drawDuration(in: .milliseconds(200) ... .seconds(2)))
        outbox.endTask(for: message, app, cancel: false)
    }
}
