import BackgroundTaskKit
import DeterministicSimulation
import Synchronization

/// A podcast SDK's callback-style downloader, as apps get it: `start` calls its completion when
/// the episode is on disk (or the network failed); `cancel` stops the transfer and, as its
/// documentation says, calls no completion at all (it keeps it until the downloader is gone).
///
/// A real `Mutex`, not a simulated lock: `cancel` runs inside a cancellation handler, which must
/// not block on a lock a descheduled thread holds; no critical section reaches a scheduling point.
final class EpisodeDownloader: Sendable {
    private struct State {
        var pending: (@Sendable (Bool) -> Void)?
        var work: WorkItem?
        var cancelled = false
    }

    private let context: WorkloadContext
    private let state = Mutex(State())

    init(_ context: WorkloadContext) {
        self.context = context
    }

    /// Downloads the next episode; `completion` gets whether it succeeded, unless cancelled
    /// (before or after the start).
    func start(completion: @escaping @Sendable (Bool) -> Void) {
        let work = context.startWork("download-episode")
        let cancelled = state.withLock { state in
            state.pending = completion  // kept even when cancelled, never called then
            if !state.cancelled { state.work = work }
            return state.cancelled
        }
        guard !cancelled else {  // a cancelled downloader starts nothing (and calls nothing back)
            work.cancel()
            return
        }
        context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [self] in
            let done = state.withLock { state in state.cancelled ? nil : state.pending.take() }
            guard let done else { return }  // cancelled meanwhile
            work.finish()
            done(context.isNetworkAvailable)
        }
    }

    /// Stops the transfer; the completion is dropped.
    func cancel() {
        let work = state.withLock { state in
            state.cancelled = true
            return state.work
        }
        work?.cancel()
    }
}
