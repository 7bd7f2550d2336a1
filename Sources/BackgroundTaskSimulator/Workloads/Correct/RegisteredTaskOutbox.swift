import BackgroundTaskKit
import DeterministicSimulation

/// The chat outbox of ``LateRegisteredTaskOutbox`` done right: each send begins its background
/// task *while holding* the lock that guards the message-to-task table, so an expiration handler
/// called before `beginBackgroundTask` returns to the outbox thread (A3.4) waits on main for the
/// lock, finds the id registered, cancels the send and ends the task before it returns (A3.2).
///
/// ```swift
/// lock.withLock {
///     tasks[message] = app.beginBackgroundTask(withName: "send-message") { endTask(for: message) }
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
        lock.withLock {
            let id = app.beginBackgroundTask(withName: "send-message") { [self] in
                endTask(for: message, app, lock, cancel: true)
            }
            tasks[message] = (id, context.startWork("send-message"))
        }
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
