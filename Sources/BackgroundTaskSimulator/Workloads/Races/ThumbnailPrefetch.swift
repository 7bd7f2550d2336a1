import BackgroundTaskKit

/// A gallery that renders the thumbnails of new photos when the user leaves it, under a
/// ``BackgroundTaskToken``. The prefetcher is created and started first; the view controller then
/// stores its completion handler (`onFinish`), which the prefetcher calls when the batch is done;
/// the expiration handler (main, A3.1) clears it, since the screen it would update is going away.
///
/// ```swift
/// let prefetcher = ThumbnailPrefetcher(batch); prefetcher.start()   // runs on the global queue
/// prefetcher.onFinish.value = { reloadGallery(); task.invalidate() } // stored after the start
/// // the prefetcher, when done:
/// let finish = onFinish.value; onFinish.value = nil; finish?()
/// ```
///
/// Planted (`onMain: false`): the prefetcher reads and clears `onFinish` on the global queue
/// while main stores or clears it, a data race on the stored closure in every batch (on a device
/// a torn closure reference, or a double release that corrupts the heap; A1.4). Correct twin
/// (`onMain: true`): the same code with the prefetcher handing its call to main
/// (`mainQueue.async`), so every access to `onFinish` is on the main thread, after the store.
///
/// Expected: `no-data-race` planted; passes every invariant on main.
final class ThumbnailPrefetch: Workload, @unchecked Sendable {
    // @unchecked: `prefetchers` is main's; each one's handler is a `SharedState` (on main: main's).
    private let onMain: Bool
    private var observation: LifecycleObservation?
    /// Every prefetcher of this process, kept while it lives, as ``ReceiptUpload`` keeps its uploads (and why).
    private var prefetchers: [Prefetcher] = []

    init(onMain: Bool) { self.onMain = onMain }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in prefetchers.append(Self.prefetch(context, onMain: onMain)) }
    }

    /// The prefetcher of one batch: renders it on the global queue, then calls `onFinish`.
    private final class Prefetcher: Sendable {
        let onFinish: SharedState<(@Sendable () -> Void)?>
        let work: WorkItem
        let onMain: Bool

        init(_ context: WorkloadContext, onMain: Bool) {
            onFinish = context.application.makeShared(name: "thumbnail-prefetch onFinish", initialValue: nil)
            work = context.startWork("thumbnail-prefetch")
            self.onMain = onMain
        }

        func start(_ context: WorkloadContext) {
            let app = context.application
            let batch = context.drawInt(in: 5...60)
            app.backgroundQueue.async { [self] in
                for _ in 0..<batch where !work.isDone {
                    app.performBlockingWork(for: context.drawDuration(in: .milliseconds(100) ... .seconds(2)))
                }
                work.finish()
                if onMain { app.mainQueue.async { self.callOnFinish() } } else { callOnFinish() }
            }
        }

        /// Calls the stored handler once: taken and cleared, then called.
        func callOnFinish() {
            let finish = onFinish.value
            onFinish.value = nil
            finish?()
        }
    }

    /// On main, at background entry.
    private static func prefetch(_ context: WorkloadContext, onMain: Bool) -> Prefetcher {
        let prefetcher = Prefetcher(context, onMain: onMain)
        let task = BackgroundTaskToken(name: "thumbnail-prefetch", host: context.application) {
            prefetcher.work.cancel()
            prefetcher.onFinish.value = nil  // the gallery it would reload is going away
        }
        guard task.isRunning else { return prefetcher }  // refused (A2.1): the handler cancelled the batch
        prefetcher.start(context)
        prefetcher.onFinish.value = { task.invalidate() }  // the completion, stored after the start
        return prefetcher
    }
}
