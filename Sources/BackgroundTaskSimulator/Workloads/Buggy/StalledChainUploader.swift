import BackgroundTaskKit

/// Exports uploaded as a sequential chain on a ``BackgroundOperationQueue``, which holds one
/// background task while it has operations. When the server answers with an error, an upload
/// operation logs and returns without calling `finish()`: the chain stalls behind it, and the
/// queue keeps its task held with nothing running until the system's expiry (A4.5, A6.1).
///
/// Expected: `no-idle-task`.
final class StalledChainUploader: Workload, @unchecked Sendable {
    // @unchecked: set once on main in didFinishLaunching; shared state is in the thread-safe
    // queue and registry.
    private var observation: LifecycleObservation?
    private var queue: BackgroundOperationQueue?
    private let inFlight = WorkRegistry()

    func didFinishLaunching(_ context: WorkloadContext) {
        let inFlight = self.inFlight
        let queue = BackgroundOperationQueue(name: "exports", host: context.application) { inFlight.cancelAll() }
        self.queue = queue
        observation = context.onDidEnterBackground { [self] in
            queue.addSequentialOperations((1...3).map { upload("export-\($0)", context) })
        }
    }

    private func upload(_ name: String, _ context: WorkloadContext) -> AsyncOperation {
        let inFlight = self.inFlight
        return AsyncOperation(name: name) { operation in
            guard let work = inFlight.start(name, context, unless: { operation.isCancelled }, onCancel: operation.finish)
            else { return operation.finish() }
            context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                let serverError = context.draw(probability: 0.3)
                if !work.isDone { work.finish() }
                guard !serverError else { return }  // the bug: logged, but the operation never finishes
                operation.finish()
            }
        }
    }
}
