import BackgroundTaskKit
import DeterministicSimulation
import Synchronization

// The services the plain-async workloads' app code calls, as protocols an app would define
// around its network layer and database, each with the simulated implementation their harness
// side passes in. App code sees only the protocols; the implementations declare their work
// (``WorkloadContext/startWork(_:)``) so the simulator can see what is in flight.

/// The app's API client, like an `async` `URLSession` call: cancelling the calling task stops
/// the request at once and throws `CancellationError`.
///
/// ```swift
/// try await api.send("upload-photos")
/// ```
protocol APIClient: Sendable {
    /// Sends one request named `name`. Throws `CancellationError` if the task is or becomes
    /// cancelled, ``PlainAsyncError/offline`` if the network was down when it ended.
    func send(_ name: String) async throws
}

/// The app's progress store, like a Core Data save: an `async` write that finishes once begun,
/// whether or not its task is cancelled.
protocol ProgressStoring: Sendable {
    /// Writes `progress`; returns when it is on disk.
    func save(progress: Int) async
}

/// A networking SDK with a completion-handler API that knows nothing of Swift task
/// cancellation: a request runs to its end unless the app stops every request with
/// ``cancelRequests()``.
protocol FeedSDK: Sendable {
    /// Sends a request; `completion` gets `.success`, ``PlainAsyncError/offline`` if the network
    /// was down when it ended, or ``PlainAsyncError/cancelled`` if ``cancelRequests()`` stopped
    /// it. The request is registered before this returns.
    func fetchLatest(completion: @escaping @Sendable (Result<Void, PlainAsyncError>) -> Void)
    /// Stops the requests in flight (`URLSession.invalidateAndCancel`-like); later ones run.
    func cancelRequests()
}

/// The errors the simulated services throw.
enum PlainAsyncError: Error {
    case offline
    case cancelled
}

/// ``APIClient`` on the simulated device: a declared work item of a drawn duration, waited with
/// a plain `Task.sleep` (virtual time inside a run) and cancelled with the task.
struct SimulatedAPIClient: APIClient {
    let context: WorkloadContext

    func send(_ name: String) async throws {
        let work = context.startWork(name)
        // The context's cancellation handler: teardown cancels a task still waiting in it (see
        // WorkloadContext.withTaskCancellationHandler); app code's standard one runs as well.
        try await context.withTaskCancellationHandler {
            try await Task.sleep(for: context.drawWorkDuration())  // tidy: allow virtual in a run
            guard context.isNetworkAvailable else {
                work.cancel()
                throw PlainAsyncError.offline
            }
            work.finish()
        } onCancel: {
            work.cancel()
        }
    }
}

/// ``ProgressStoring`` on the simulated device: a declared write of a drawn duration, finished
/// on the app's background queue; cancelling the task does not stop it.
struct SimulatedProgressStore: ProgressStoring {
    let context: WorkloadContext

    func save(progress: Int) async {
        let requests = SimulatedRequests(context, work: "save-progress")
        await withCheckedContinuation { continuation in
            requests.send { _ in continuation.resume() }
        }
    }
}

/// ``FeedSDK`` on the simulated device: each request a declared work item finished on the
/// app's background queue a drawn time later, unless ``cancelRequests()`` came first.
final class SimulatedFeedSDK: FeedSDK {
    private let requests: SimulatedRequests

    init(_ context: WorkloadContext) {
        requests = SimulatedRequests(context, work: "fetch-feed")
    }

    func fetchLatest(completion: @escaping @Sendable (Result<Void, PlainAsyncError>) -> Void) {
        requests.send { outcome in
            switch outcome {
            case .succeeded: completion(.success(()))
            case .offline: completion(.failure(.offline))
            case .cancelled: completion(.failure(.cancelled))
            }
        }
    }

    func cancelRequests() { requests.cancelAll() }
}

/// Requests that ignore task cancellation: each a work item finished on the app's background
/// queue a drawn time later, or stopped by ``cancelAll()``; each completion is called once.
///
/// A real `Mutex`, not a simulated lock: ``cancelAll()`` runs in an expiration handler on main,
/// which must not block on a lock a descheduled thread holds; no critical section reaches a
/// scheduling point.
final class SimulatedRequests: Sendable {
    enum Outcome: Sendable { case succeeded, offline, cancelled }

    private struct Pending {
        var number: Int
        var work: WorkItem
        var completion: @Sendable (Outcome) -> Void
    }

    private let context: WorkloadContext
    private let workName: String
    private let state = Mutex((next: 0, pending: [Pending]()))

    init(_ context: WorkloadContext, work workName: String) {
        self.context = context
        self.workName = workName
    }

    /// Sends one request, registered before this returns; `completion` gets its outcome.
    func send(completion: @escaping @Sendable (Outcome) -> Void) {
        let work = context.startWork(workName)
        let number = state.withLock { state in
            state.next += 1
            state.pending.append(Pending(number: state.next, work: work, completion: completion))
            return state.next
        }
        context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [self] in
            guard let request = take(number) else { return }  // cancelled meanwhile
            request.work.finish()
            request.completion(context.isNetworkAvailable ? .succeeded : .offline)
        }
    }

    /// Stops every request in flight: its work is cancelled and its completion called.
    func cancelAll() {
        let stopped = state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        for request in stopped {
            request.work.cancel()
            request.completion(.cancelled)
        }
    }

    private func take(_ number: Int) -> Pending? {
        state.withLock { state in
            guard let index = state.pending.firstIndex(where: { $0.number == number }) else { return nil }
            return state.pending.remove(at: index)
        }
    }
}
