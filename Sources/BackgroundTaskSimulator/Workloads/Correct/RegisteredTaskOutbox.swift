import BackgroundTaskKit

/// The chat outbox of ``LateRegisteredTaskOutbox`` done right: each send begins its background
/// task *while holding* the lock of the message-to-task table, so an expiration handler called
/// before `beginBackgroundTask` returns to the outbox thread (A3.4) waits on main for the lock,
/// finds the id recorded, cancels the send and ends the task before it returns (A3.2).
///
/// ```swift
/// outbox.lock.withLock {
///     let id = app.beginBackgroundTask(withName: "send-message") { outbox.endTask(for: message) }
///     outbox.record(message, task: id)
/// }
/// ```
///
/// Contract: the lock is held only around the begin and the table updates, never across the
/// send itself, so the handler waits for a begin to return and nothing longer (A3.5). The lock
/// is never taken on main around a begin: there, a handler that the system called synchronously
/// would deadlock on it.
///
/// Expected: passes every invariant.
final class RegisteredTaskOutbox: Workload, @unchecked Sendable {
    // @unchecked: workloads are confined to the run's thread; the outbox guards its own state.
    private var outbox: ChatOutbox?

    func didFinishLaunching(_ context: WorkloadContext) {
        outbox = ChatOutbox(context) { outbox, message in Self.send(message, outbox, context) }
    }

    /// On the outbox queue: one message, under its own background task.
    private static func send(_ message: Int, _ outbox: ChatOutbox, _ context: WorkloadContext) {
        let app = context.application
        outbox.lock.withLock {
            let id = app.beginBackgroundTask(withName: "send-message") {
                outbox.endTask(for: message, app, cancel: true)
            }
            outbox.record(message, task: id, work: context.startWork("send-message"))
        }
        app.performBlockingWork(for: context.drawDuration(in: .milliseconds(200) ... .seconds(2)))
        outbox.endTask(for: message, app, cancel: false)
    }
}
