import BackgroundTaskKit
import DeterministicSimulation

/// A chat app's outbox: when the user leaves, the messages still queued (texts, read receipts,
/// typing-stopped notices) are sent one by one on a serial "outbox" queue, each send wrapped in
/// its own background task, the way networking helpers wrap every request. The task ids are kept
/// per message in a dictionary under a lock, which the send's completion and the message's
/// expiration handler both use, so the author considered it thread-safe; but the id is registered
/// only after `beginBackgroundTask` has returned to the outbox thread.
///
/// ```swift
/// let id = app.beginBackgroundTask(withName: "send-message") { endTask(for: message) }
/// lock.withLock { tasks[message] = id }   // too late if the handler already ran
/// ```
///
/// The race (A3.4): a send that begins after the expiry callout gets its expiration handler
/// called at once, on main, while `beginBackgroundTask` is returning to the outbox thread. When
/// main runs first, the handler finds no id for its message and returns without ending the task
/// (A3.2, A3.6); the send's completion ends it later, or the watchdog kills the app first (A7.1).
/// With one thread the begin always returns, and the id is registered, before main runs the
/// handler, so the run passes (`concurrency` off).
///
/// Expected: `expiry-ends-task`.
final class LateRegisteredTaskOutbox: Workload, @unchecked Sendable {
    // @unchecked: `tasks` is only touched holding `lock` (a simulated lock).
    private var tasks: [Int: (task: BackgroundTaskIdentifier, work: WorkItem)] = [:]
    private var nextMessage = 0
    private var lock: SimulatedLock?
    private var outbox: (any WorkQueue)?
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let lock = context.makeLock("outbox tasks")
        let outbox = context.application.makeSerialQueue(label: "outbox")
        self.lock = lock
        self.outbox = outbox
        observation = context.onDidEnterBackground { [self] in
            for _ in 0..<context.drawInt(in: 5...60) {
                nextMessage += 1
                let message = nextMessage
                outbox.async { [self] in send(message, context, lock) }
            }
        }
    }

    /// On the outbox queue: one message, under its own background task.
    private func send(_ message: Int, _ context: WorkloadContext, _ lock: SimulatedLock) {
        let app = context.application
        let id = app.beginBackgroundTask(withName: "send-message") { [self] in
            endTask(for: message, app, lock, cancel: true)
        }
        let work = context.startWork("send-message")
        lock.withLock { tasks[message] = (id, work) }  // the bug: registered after begin returned
        app.performBlockingWork(for: context.drawDuration(in: .milliseconds(200) ... .seconds(2)))
        endTask(for: message, app, lock, cancel: false)
    }

    private func endTask(for message: Int, _ app: SimulatedApplication, _ lock: SimulatedLock, cancel: Bool) {
        lock.withLock {
            guard let entry = tasks.removeValue(forKey: message) else { return }
            if cancel { entry.work.cancel() } else { entry.work.finish() }
            if entry.task != .invalid { app.endBackgroundTask(entry.task) }
        }
    }
}
