import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// The textbook asynchronous `Operation` (state under a lock, KVO by hand, finished from a
/// completion on another queue) in an `OperationQueue`, with a completion operation that depends
/// on every upload, cancelled with `cancelAllOperations()` in the expiration handler. Correct iOS
/// code; in a run it crashed (SIGSEGV) in swift-corelibs-foundation's `Operation`, which lists
/// its dependents unretained: the cancelled completion operation finished first and was freed,
/// and an upload's `finish()` then read it (found by a probe of app code). The run now keeps
/// every operation's block, and so the operation, until the process ends.
@Suite(.enabled(if: VirtualClocks.isSupported))
struct AsynchronousOperationTests {
    @Test("uploads as asynchronous operations, cancelled with cancelAllOperations() at expiry, hold every invariant")
    func cancelAllAtExpiryHolds() {
        let info = WorkloadInfo(name: "operation-uploads", summary: "asynchronous operations") { OperationUploads() }
        let report = WorkloadCampaign(workload: info, runs: 300, seed: Seed(0x0a5e)).run()
        #expect(report.passed, "\(report)")
    }
}

/// An asynchronous `Operation`: `start()` returns at once, and the upload's completion finishes
/// it later on a global queue (as a URL task's would), sending KVO for `isExecuting` and
/// `isFinished`. Cancelled, the request stops, and its completion comes at once (with an
/// error, as a cancelled URL task's does) and finishes the operation.
private final class UploadOperation: Operation, @unchecked Sendable {
    // @unchecked: the state is under `stateLock`.
    private let stateLock = NSLock()
    private var executing = false
    private var finished = false
    private let seconds: Double
    private let context: WorkloadContext
    private var request: WorkItem?

    init(seconds: Double, context: WorkloadContext) {
        self.seconds = seconds
        self.context = context
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { stateLock.withLock { executing } }
    override var isFinished: Bool { stateLock.withLock { finished } }

    override func start() {
        if isCancelled {
            finish()
            return
        }
        willChangeValue(forKey: "isExecuting")
        stateLock.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
        let request = context.startWork("upload")
        stateLock.withLock { self.request = request }
        // Cancelled since the check above, before the request was there to cancel.
        if isCancelled { return complete(cancelled: true) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in complete(cancelled: false) }
    }

    override func cancel() {
        super.cancel()
        guard stateLock.withLock({ request }) != nil else { return }
        DispatchQueue.global().async { [self] in complete(cancelled: true) }
    }

    /// The request's completion: the first one ends the request and the operation.
    private func complete(cancelled: Bool) {
        guard let request = stateLock.withLock({ () -> WorkItem? in
            defer { self.request = nil }
            return self.request
        }) else { return }
        if cancelled { request.cancel() } else { request.finish() }
        finish()
    }

    private func finish() {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        stateLock.withLock {
            executing = false
            finished = true
        }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}

/// On each background entry, a batch of uploads under a background task; a completion operation
/// that depends on them ends the task on main; the expiration handler cancels everything.
private final class OperationUploads: Workload, @unchecked Sendable {
    // @unchecked: touched on the main queue only.
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        return queue
    }()
    private var task = BackgroundTaskIdentifier.invalid
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = app.addLifecycleObserver { [self] event in
            guard event == .didEnterBackground, task == .invalid else { return }
            task = app.beginBackgroundTask(withName: "uploads") { [self] in
                queue.cancelAllOperations()
                endTask(app)
            }
            guard task != .invalid else { return }
            let done = BlockOperation {
                DispatchQueue.main.async { self.endTask(app) }
            }
            for _ in 0..<context.drawInt(in: 1...3) {
                let upload = UploadOperation(seconds: Double(context.drawInt(in: 1...40)), context: context)
                done.addDependency(upload)
                queue.addOperation(upload)
            }
            queue.addOperation(done)
        }
    }

    private func endTask(_ app: SimulatedApplication) {
        guard task != .invalid else { return }
        app.endBackgroundTask(task)
        task = .invalid
    }
}
