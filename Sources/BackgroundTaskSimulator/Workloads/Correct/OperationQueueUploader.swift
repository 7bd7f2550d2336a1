import BackgroundTaskKit

/// The background operation queue (Backgroundable) done right: a ``BackgroundOperationQueue``
/// holds one task exactly while it has work. Entering the background enqueues an asynchronous
/// upload and a sequential chain (compact, then two uploads); becoming active enqueues a fetch
/// that may still be running when the app leaves. On expiry the queue cancels its operations and
/// ends its task; the operations stop their work.
///
/// Expected: passes every invariant.
final class OperationQueueUploader: Workload, @unchecked Sendable {
    // @unchecked: set once on the main thread in didFinishLaunching; shared state is in the
    // thread-safe queue and registry.
    private var observation: LifecycleObservation?
    private var queue: BackgroundOperationQueue?
    private let inFlight = WorkRegistry()

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let inFlight = self.inFlight
        let queue = BackgroundOperationQueue(name: "uploads", host: app, maxConcurrentOperationCount: 2) {
            inFlight.cancelAll()
        }
        self.queue = queue
        observation = app.addLifecycleObserver { [self] event in
            switch event {
            case .didBecomeActive:
                queue.addOperation(upload("fetch-feed", context))
            case .didEnterBackground:
                queue.addOperation(upload("upload-photo", context))
                queue.addSequentialOperations([
                    SyncOperation(name: "compact-journal") {},
                    upload("upload-journal-1", context),
                    upload("upload-journal-2", context),
                ])
            default:
                break
            }
        }
    }

    /// An operation that takes a drawn time and finishes asynchronously.
    private func upload(_ name: String, _ context: WorkloadContext) -> AsyncOperation {
        let inFlight = self.inFlight
        return AsyncOperation(name: name) { operation in
            // The cancellation check and the registration are one step under the registry's
            // lock: an expiry between them would miss this work.
            // Cancelled on expiry, the operation finishes at once: its queue stops holding the
            // task for an upload that is no longer running.
            guard let work = inFlight.start(name, context, unless: { operation.isCancelled }, onCancel: operation.finish)
            else {
                return operation.finish()
            }
            context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                if !work.isDone { work.finish() }
                operation.finish()
            }
        }
    }
}
