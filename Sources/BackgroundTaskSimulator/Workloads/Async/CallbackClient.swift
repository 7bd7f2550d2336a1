import BackgroundTaskKit
import DeterministicSimulation
import Synchronization

/// An SDK's callback-style client (the URLSession-completion-handler shape: a weather SDK, a
/// contacts SDK): `fetch` calls its completion with whether it succeeded (the network was up at
/// the end) a drawn time later, on the background queue. It knows nothing of Swift task
/// cancellation and has no way to cancel a request; it keeps each completion until it calls it.
final class CallbackClient: Sendable {
    private let context: WorkloadContext
    /// The name of each request's work item (`"fetch-forecast"`).
    private let workName: String
    private let pending = Mutex<[@Sendable (Bool) -> Void]>([])

    init(_ context: WorkloadContext, work workName: String) {
        self.context = context
        self.workName = workName
    }

    /// Sends one request; `completion` gets whether it succeeded.
    ///
    /// ```swift
    /// client.fetch { ok in if !ok { scheduleRetry() } }
    /// ```
    func fetch(completion: @escaping @Sendable (Bool) -> Void) {
        let work = context.startWork(workName)
        let slot = pending.withLock { pending in
            pending.append(completion)
            return pending.count - 1
        }
        context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [self] in
            let done = pending.withLock { $0[slot] }
            work.finish()
            done(context.isNetworkAvailable)
        }
    }
}
