import BackgroundTaskKit
import DeterministicSimulation
import Synchronization

/// A podcast app's overnight downloads, on the raw BGTaskScheduler API with async/await: the
/// processing task's launch handler starts a `Task` that awaits the SDK's callback downloader
/// through a checked continuation and completes the `BGTask` with the result; the expiration
/// handler cancels that `Task`. The continuation wrapper resumes on every path, cancellation
/// included (the SDK calls nothing back for a cancelled download), so the task is completed
/// within the expiry lead (C4.6), and a download cancelled before it started starts nothing.
/// Without BGTaskScheduler (iOS 12) it downloads on leaving the foreground under a background
/// task token taken on the main thread, whose expiration handler cancels the `Task`.
///
/// Expected: passes every invariant.
final class PodcastDownloads: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    static let processing = "com.example.bgapp.processing"
    private var observation: LifecycleObservation?
    /// How the app turns the SDK call into an `await` (the planted bug swaps it).
    let awaitDownload: @Sendable (EpisodeDownloader, WorkloadContext) async -> Bool

    init(awaitDownload: @escaping @Sendable (EpisodeDownloader, WorkloadContext) async -> Bool = PodcastDownloads.download) {
        self.awaitDownload = awaitDownload
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let scheduler = context.taskScheduler
        let awaitDownload = awaitDownload
        let registered = scheduler.register(forTaskWithIdentifier: Self.processing, using: nil) { task in
            let download = Task(executorPreference: context.taskExecutor) {
                let ok = await awaitDownload(EpisodeDownloader(context), context)
                task.setTaskCompleted(success: ok)
            }
            task.expirationHandler = { download.cancel() }
        }
        observation = context.onDidEnterBackground {
            guard registered else {
                let download = TaskHandle()
                let token = BackgroundTaskToken(name: "download-episode", host: context.application) {
                    download.cancel()
                }
                download.task = Task(executorPreference: context.taskExecutor) {
                    _ = await awaitDownload(EpisodeDownloader(context), context)
                    token.invalidate()
                }
                return
            }
            try? scheduler.submit(TaskRequest(identifier: Self.processing, kind: .processing(
                requiresNetworkConnectivity: true, requiresExternalPower: false)))
        }
    }

    /// The SDK call as an `await` that returns on every path: cancelling the task cancels the
    /// download and resumes with `false` (the resume happens once, whichever comes first).
    @Sendable static func download(_ downloader: EpisodeDownloader, _ context: WorkloadContext) async -> Bool {
        let once = ResumeOnce()
        return await context.withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                once.set(continuation)
                downloader.start { ok in once.resume(ok) }
            }
        } onCancel: {
            downloader.cancel()
            once.resume(false)
        }
    }
}

/// A continuation resumed exactly once, by whichever of the download and the cancellation
/// comes first; a resume before the continuation is set is kept for it.
///
/// A real `Mutex`, not a simulated lock: `resume` runs inside a cancellation handler, which must
/// not block on a lock a descheduled thread holds; no critical section here reaches a scheduling
/// point.
final class ResumeOnce: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var early: Bool?
        var resumed = false
    }

    private let state = Mutex(State())

    func set(_ continuation: CheckedContinuation<Bool, Never>) {
        let early = state.withLock { state -> Bool? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    func resume(_ value: Bool) {
        let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.resumed else { return nil }
            state.resumed = true
            if state.continuation == nil { state.early = value }
            return state.continuation.take()
        }
        waiting?.resume(returning: value)
    }
}
