import BackgroundTaskKit

/// What the chat-outbox workloads share: a serial "outbox" queue that gets the messages still
/// queued (texts, read receipts, typing-stopped notices) on every background entry, and the table
/// of each message's background task and work, under a lock that sends and expiration handlers
/// take.
///
/// ```swift
/// outbox = ChatOutbox(context) { outbox, message in
///     outbox.lock.withLock {
///         let id = app.beginBackgroundTask(withName: "send-message") { outbox.endTask(for: message, app, cancel: true) }
///         outbox.record(message, task: id, work: context.startWork("send-message"))
///     }
///     app.performBlockingWork(for: sendTime)
///     outbox.endTask(for: message, app, cancel: false)
/// }
/// ```
///
/// Contract: `send` runs on the outbox queue, once per message, in order. ``record(_:task:work:)``
/// must be called holding ``lock``; ``endTask(for:_:cancel:)`` takes it, ends the work and the
/// task of a recorded message once, and does nothing for a message not (or no longer) recorded.
final class ChatOutbox: @unchecked Sendable {
    // @unchecked: `tasks` is only touched holding `lock` (the host's lock: a simulated one here);
    // `nextMessage` on main only.
    let lock: any HostLock
    private var tasks: [Int: (task: BackgroundTaskIdentifier, work: WorkItem)] = [:]
    private var nextMessage = 0
    private var observation: LifecycleObservation?

    init(_ context: WorkloadContext, send: @escaping @Sendable (ChatOutbox, Int) -> Void) {
        lock = context.host.makeLock(name: "outbox tasks")
        let queue = context.application.makeSerialQueue(label: "outbox")
        observation = context.onDidEnterBackground { [self] in
            for _ in 0..<context.drawInt(in: 5...30) {
                nextMessage += 1
                let message = nextMessage
                queue.async { [self] in send(self, message) }
            }
        }
    }

    /// Records a message's task and work; call holding ``lock``.
    func record(_ message: Int, task: BackgroundTaskIdentifier, work: WorkItem) {
        tasks[message] = (task, work)
    }

    /// Cancels or finishes the message's work and ends its task, if recorded and not yet ended.
    func endTask(for message: Int, _ app: SimulatedApplication, cancel: Bool) {
        lock.withLock {
            guard let entry = tasks.removeValue(forKey: message) else { return }
            if cancel { entry.work.cancel() } else { entry.work.finish() }
            if entry.task != .invalid { app.endBackgroundTask(entry.task) }
        }
    }
}
