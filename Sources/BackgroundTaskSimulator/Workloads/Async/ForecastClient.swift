import BackgroundTaskKit
import DeterministicSimulation
import Synchronization

/// A weather SDK's callback-style client (the URLSession-completion-handler shape): `fetch`
/// calls its completion with whether it succeeded (the network was up at the end) a drawn time
/// later, on the background queue. It knows nothing of Swift task cancellation; it keeps each
/// completion until it calls it.
final class ForecastClient: Sendable {
    private let context: WorkloadContext
    private let pending = Mutex<[@Sendable (Bool) -> Void]>([])

    init(_ context: WorkloadContext) {
        self.context = context
    }

    /// Fetches the forecast; `completion` gets whether it succeeded.
    ///
    /// ```swift
    /// client.fetch { ok in if !ok { scheduleRetry() } }
    /// ```
    func fetch(completion: @escaping @Sendable (Bool) -> Void) {
        let work = context.startWork("fetch-forecast")
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
