import BackgroundTaskKit
import Foundation

/// A metrics SDK's flush as SDKs write it: events queued in memory behind an `NSLock`, a
/// background task begun when the app leaves the foreground, the batch sent from the global
/// queue and waited for with a `DispatchSemaphore`, the SDK's on-disk queue rewritten with the
/// lock held, and the task ended by whichever comes first, the flush or the expiration handler
/// (on main, A3.1). Plain Foundation locks and Dispatch semaphores and BackgroundTaskKit's host
/// protocols only: inside a run they are real, and the simulator sees who holds and who waits
/// (DeterministicSimulation's `PlainLocks`).
///
/// ```swift
/// let flusher = MetricsFlusher(host: UIKitApplicationHost(), transport: HTTPTransport(), store: DiskQueue())
/// flusher.track("screen_view")
/// // in sceneDidEnterBackground:
/// flusher.flushInBackground()
/// ```
///
/// Contract (``Locking/oneLock``, the correct SDK): every task it begins is ended exactly once,
/// by the flush or by the expiration handler, each checking and clearing the id under `lock`
/// (A5.2); the handler cancels the request in flight first, and may wait for the lock while the
/// flush writes its queue (a short write, so it returns "in less than a second or so", A3.5). A
/// batch that was not sent stays queued.
///
/// Planted (``Locking/inverted``): the task id moves behind a second lock, and the flush holds the
/// queue's lock from its send to its end; it takes the queue's lock and then the task's, the
/// expiration handler the task's and then the queue's (to cancel the send and save what is left):
/// an expiry during the flush deadlocks the main thread (`no-deadlock`; on a device the watchdog
/// kills the hung app).
final class MetricsFlusher: @unchecked Sendable {
    // @unchecked: every stored var is read and written with `lock` held (`taskID` with
    // `taskLock` held in the inverted variant); the locks are what make it Sendable.

    /// How the flush and the expiration handler guard the task id.
    enum Locking: Sendable {
        /// One lock for the queue, the request and the id; both paths end the task inside it.
        case oneLock
        /// The id behind its own lock, taken in opposite orders by the two paths (the planted
        /// deadlock).
        case inverted
    }

    private let host: any ApplicationHost
    private let transport: any EventTransport
    private let store: any EventStore
    private let locking: Locking
    private let lock = NSLock()
    private let taskLock = NSLock()
    private var queued: [String] = []
    private var flushing = false
    private var inFlight: (any EventRequest)?
    private var taskID = BackgroundTaskIdentifier.invalid

    init(host: any ApplicationHost, transport: any EventTransport, store: any EventStore, locking: Locking = .oneLock) {
        self.host = host
        self.transport = transport
        self.store = store
        self.locking = locking
    }

    /// Queues an event, from any thread.
    func track(_ event: String) {
        lock.lock()
        queued.append(event)
        lock.unlock()
    }

    /// Sends what is queued under a background task (on leaving the foreground, on main).
    func flushInBackground() {
        lock.lock()
        guard !flushing, !queued.isEmpty else {
            lock.unlock()
            return
        }
        flushing = true
        let batch = queued
        lock.unlock()
        let id = host.beginBackgroundTask(withName: "metrics-flush") { [self] in expire() }
        guard id != .invalid else {  // A2.1: no background time; flush on the next entry
            lock.lock()
            flushing = false
            lock.unlock()
            return
        }
        let request = transport.request(batch)  // made on main, under the task; sent below
        withTaskLock { taskID = id }
        lock.lock()
        inFlight = request
        lock.unlock()
        host.backgroundQueue.async { [self] in
            switch locking {
            case .oneLock: finishFlush(request, batch: batch)
            case .inverted: finishFlushHoldingQueueLock(request, batch: batch)
            }
        }
    }

    /// The flush's second half, on the global queue: sends outside the lock, then records the
    /// outcome, writes the queue and ends the task holding it.
    private func finishFlush(_ request: any EventRequest, batch: [String]) {
        let sent = send(request)  // waits, outside the lock; false once cancelled
        lock.lock()
        record(sent, batch: batch)
        endTaskHoldingLock()
        lock.unlock()
    }

    /// The planted flush: holds the queue's lock from the send to the end (so that no event is
    /// tracked mid-flush) and takes the task's lock inside it: the queue's, then the task's.
    private func finishFlushHoldingQueueLock(_ request: any EventRequest, batch: [String]) {
        lock.lock()
        let sent = send(request)
        record(sent, batch: batch)
        taskLock.lock()
        endTaskHoldingLock()
        taskLock.unlock()
        lock.unlock()
    }

    /// Records a flush's outcome and rewrites the on-disk queue; the caller holds `lock`.
    private func record(_ sent: Bool, batch: [String]) {
        inFlight = nil
        if sent { queued.removeFirst(min(batch.count, queued.count)) }
        store.persist(queued)  // the on-disk queue, rewritten with the lock held
        flushing = false
    }

    /// The expiration handler, on main: cancels the request in flight and ends the task before
    /// returning (A3.2).
    private func expire() {
        switch locking {
        case .oneLock:
            lock.lock()
            inFlight?.cancel()
            endTaskHoldingLock()
            lock.unlock()
        case .inverted:
            taskLock.lock()  // the task's lock, then the queue's
            lock.lock()
            inFlight?.cancel()
            store.persist(queued)  // save what is left before the app is suspended
            lock.unlock()
            endTaskHoldingLock()
            taskLock.unlock()
        }
    }

    /// Starts the request and waits for its completion with a semaphore, as SDKs make an
    /// asynchronous request synchronous on their own queue.
    private func send(_ request: any EventRequest) -> Bool {
        let done = DispatchSemaphore(value: 0)  // tidy: allow the app's own semaphore (PlainLocks sees it)
        let outcome = Outcome()
        request.start { accepted in
            outcome.accepted = accepted
            done.signal()
        }
        done.wait()
        return outcome.accepted
    }

    /// The completion's answer, written before its signal and read after the wait.
    private final class Outcome: @unchecked Sendable {
        // @unchecked: the semaphore orders the one write before the one read.
        var accepted = false
    }

    /// Runs `body` with the lock that guards `taskID` held.
    private func withTaskLock(_ body: () -> Void) {
        let guarding = locking == .inverted ? taskLock : lock
        guarding.lock()
        body()
        guarding.unlock()
    }

    /// Ends the held task once (A5.4); the caller holds the lock that guards `taskID`.
    private func endTaskHoldingLock() {
        guard taskID != .invalid else { return }
        host.endBackgroundTask(taskID)
        taskID = .invalid
    }
}

/// Where the SDK sends a batch: a request made on the calling thread and started on another,
/// as an SDK makes a `URLSessionDataTask`.
protocol EventTransport: Sendable {
    func request(_ batch: [String]) -> any EventRequest
}

/// One batch's request.
protocol EventRequest: AnyObject, Sendable {
    /// Sends the batch; `completion` is called once, on another thread: true when the server
    /// took it, false when it refused it or the request was cancelled.
    func start(_ completion: @escaping @Sendable (Bool) -> Void)
    /// Cancels the request, from any thread: its completion comes at once, with false.
    func cancel()
}

/// The SDK's on-disk queue: a blocking write of the events not yet sent.
protocol EventStore: Sendable {
    func persist(_ events: [String])
}

/// The harness side: the SDK in a simulated app that tracks a few events in each foreground
/// visit and flushes on every background entry; its requests complete on a simulated queue (1-40
/// s, refused one time in five) and its writes block the calling simulated thread (20-300 ms).
final class MetricsFlushWorkload: Workload, @unchecked Sendable {
    // @unchecked: `observation` and `tracked` are touched on main only (didFinishLaunching and
    // lifecycle callbacks).
    private let locking: MetricsFlusher.Locking
    private var observation: LifecycleObservation?
    private var tracked = 0

    init(locking: MetricsFlusher.Locking) { self.locking = locking }

    func didFinishLaunching(_ context: WorkloadContext) {
        let flusher = MetricsFlusher(
            host: context.application, transport: SimulatedEventTransport(context: context),
            store: SimulatedEventStore(context: context), locking: locking)
        observation = context.onDidEnterBackground { [self] in
            for _ in 0..<context.drawInt(in: 0...3) {
                tracked += 1
                flusher.track("event-\(tracked)")
            }
            flusher.flushInBackground()
        }
    }
}

/// Requests on the simulated network's time: each one declared work from its creation (the
/// harness checks a task holds the app while it is in flight), completing on the transport's
/// serial queue 1-40 s after it starts, refused one time in five; a cancel completes it at once.
struct SimulatedEventTransport: EventTransport, @unchecked Sendable {
    // @unchecked: the context and the queue are the run's, used only on its simulated threads.
    let context: WorkloadContext
    let queue: any WorkQueue

    init(context: WorkloadContext) {
        self.context = context
        queue = context.application.makeSerialQueue(label: "metrics-network")
    }

    func request(_ batch: [String]) -> any EventRequest {
        SimulatedEventRequest(context: context, queue: queue, work: context.startWork("send-metrics"))
    }
}

/// One request: its work ends when it completes (finished) or is cancelled.
final class SimulatedEventRequest: EventRequest, @unchecked Sendable {
    // @unchecked: touched only by the run's simulated threads, one at a time (the run's baton).
    let context: WorkloadContext
    let queue: any WorkQueue
    let work: WorkItem
    private var completion: (@Sendable (Bool) -> Void)?

    init(context: WorkloadContext, queue: any WorkQueue, work: WorkItem) {
        self.context = context
        self.queue = queue
        self.work = work
    }

    func start(_ completion: @escaping @Sendable (Bool) -> Void) {
        self.completion = completion
        let duration = context.drawDuration(in: .seconds(1) ... .seconds(40))
        let accepted = context.drawInt(in: 0...4) != 0
        queue.asyncAfter(duration) { [self] in
            guard !work.isDone else { return }  // cancelled: already completed
            work.finish()
            complete(accepted)
        }
    }

    func cancel() {
        guard !work.isDone else { return }
        work.cancel()
        queue.async { [self] in complete(false) }
    }

    private func complete(_ accepted: Bool) {
        completion.take()?(accepted)
    }
}

/// A blocking write of 20-300 ms.
struct SimulatedEventStore: EventStore, @unchecked Sendable {
    // @unchecked: as ``SimulatedEventTransport``.
    let context: WorkloadContext

    func persist(_ events: [String]) {
        context.application.performBlockingWork(for: context.drawDuration(in: .milliseconds(20) ... .milliseconds(300)))
    }
}
