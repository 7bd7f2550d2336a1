import BackgroundTaskKit
import DeterministicSimulation

/// The async app code the async workloads share: a network call written with async/await on
/// the process's clock, and the callback-style API an app wraps in a continuation.
enum AsyncWork {
    /// One declared piece of work taking a drawn time on `context.clock`, written the
    /// cancellation-aware way: cancelling the task stops it at once (the work item is cancelled
    /// synchronously, inside the `cancel()` call) and throws `CancellationError`.
    ///
    /// ```swift
    /// try await AsyncWork.perform("upload-entries", context)
    /// ```
    ///
    /// Contract: throws `CancellationError` if the task is or becomes cancelled; otherwise the
    /// work item is finished when this returns. Needs a network only if `needsNetwork`.
    static func perform(_ name: String, _ context: WorkloadContext, needsNetwork: Bool = false) async throws {
        let work = context.startWork(name)
        // Finished inside the handler's scope: a thread descheduled on its way to `finish()`
        // can still see its work cancelled by an expiry meanwhile (then `finish()` does nothing).
        try await context.withTaskCancellationHandler {
            try await context.clock.sleep(for: context.drawWorkDuration())
            if needsNetwork, !context.isNetworkAvailable {
                work.cancel()
                throw URLErrorLike.notConnected
            }
            work.finish()
        } onCancel: {
            work.cancel()
        }
    }

    /// The error a network call throws when it is offline.
    enum URLErrorLike: Error { case notConnected }
}

/// A box for the handle of a task, so that an expiration handler made before the task can
/// cancel it (the handler and the assignment both run on the main queue), also before the task
/// exists: a refused begin runs the token's expiration handler inside its `init`, before the
/// task is made, and the task must then start cancelled, not run unheld (issue 17).
///
/// ```swift
/// let save = TaskHandle()
/// let token = BackgroundTaskToken(name: "save", host: app) { save.cancel() }  // may run at once
/// save.task = Task(executorPreference: context.taskExecutor) { … }           // cancelled if so
/// ```
final class TaskHandle: @unchecked Sendable {
    // @unchecked: set and read on the simulated main queue only.
    private var isCancelled = false

    /// The task; cancelled as it is set if ``cancel()`` came first.
    var task: Task<Void, Never>? {
        didSet { if isCancelled { task?.cancel() } }
    }

    /// Cancels the task, now or as soon as it is set.
    func cancel() {
        isCancelled = true
        task?.cancel()
    }
}

/// A box for a background task id, so that an expiration handler made before `begin` returned
/// can end that task (set and read on the main queue).
final class TaskIDBox: @unchecked Sendable {
    // @unchecked: set and read on the simulated main queue only.
    var id = BackgroundTaskIdentifier.invalid
}
