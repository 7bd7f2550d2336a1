import BackgroundTaskKit
public import BackgroundTaskNetwork
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A ``BackgroundTaskNetwork/NetworkSession`` over the process's ``SimulatedNetwork``: the app's
/// `URLSession` code runs unchanged, with drawn latency and the failures iOS gives background work.
///
/// ```swift
/// // The harness side of an uploader written against `any NetworkSession`:
/// func didFinishLaunching(_ context: WorkloadContext) {
///     let queue = PhotoUploadQueue(host: context.application,
///                                  session: context.makeURLSession(work: .eachRequest))
///     observation = context.onDidEnterBackground { queue.appDidEnterBackground() }
/// }
/// ```
///
/// Contract (``SimulatedNetwork``'s, through `URLSession`'s shapes):
/// - A resumed task is one ``SimulatedNetwork`` request, named `"<method> <path>"`: a drawn
///   duration; `URLError(.notConnectedToInternet)` with the network down;
///   `.timedOut` past the request's `timeoutInterval`; `.networkConnectionLost` when the network
///   goes away or the app is suspended meanwhile (DTS: connections are defunct at suspension);
///   `.cancelled` after ``NetworkSessionTask/cancel()``. Each start and outcome is a
///   `network.request` event.
/// - A success hands back an empty body and an `HTTPURLResponse` with status 200; a download's
///   location names no real file (read the body with a data task where it matters).
/// - Completion handlers run on the session's serial delegate queue, as `URLSession.shared`'s do
///   (not the main queue), exactly once; the queue stops with the process's other queues while it
///   is suspended.
/// - ``Work`` says which declared work item each request serves, so `background-work-held` and
///   `request-failure-handled` judge it. Cancelling a request in flight hits the probe
///   `url-request-cancelled`.
/// - The `async` forms need the workload's `usesAsync: true`; cancelling the calling task cancels
///   the request, which throws `URLError(.cancelled)`.
/// Every draw comes from the run's choices: the same seed gives the same run.
public final class SimulatedURLSession: NetworkSession, @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.

    /// Which declared work item (``WorkloadContext/startWork(_:)``) a request serves.
    public enum Work: Sendable {
        /// None: requests are not work the harness checks (analytics, prefetches).
        case none
        /// Each request is its own work item, named as the request, from `resume()` until its
        /// completion handler runs (ended early by `cancel()`): `background-work-held` checks
        /// that something holds the app awake while it is in flight in the background.
        case eachRequest
        /// The work item the harness gives for a request (nil: none), found at `resume()`. The
        /// harness ends it when the app reports the work done or given up (a cancelled request
        /// cancels it at once): `request-failure-handled` then checks the app never counts a
        /// failed request as done.
        case servedBy(@Sendable (URLRequest) -> WorkItem?)
    }

    unowned let context: WorkloadContext
    let work: Work
    /// Where completion handlers run (`URLSession`'s delegate queue).
    let delegateQueue: any WorkQueue
    private var downloads = 0

    init(context: WorkloadContext, work: Work) {
        self.context = context
        self.work = work
        delegateQueue = context.application.makeSerialQueue(label: "com.apple.NSURLSession-delegate")
    }

    var network: SimulatedNetwork { context.application.network }

    public func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        SimulatedURLSessionTask(session: self, request: request) { result in
            switch result {
            case .success(let response): completionHandler(Data(), response, nil)
            case .failure(let error): completionHandler(nil, nil, error)
            }
        }
    }

    public func uploadTask(
        with request: URLRequest, from bodyData: Data?,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        dataTask(with: request, completionHandler: completionHandler)
    }

    public func downloadTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        downloads += 1
        let location = URL(fileURLWithPath: "/simulated/tmp/CFNetworkDownload_\(downloads).tmp")
        return SimulatedURLSessionTask(session: self, request: request) { result in
            switch result {
            case .success(let response): completionHandler(location, response, nil)
            case .failure(let error): completionHandler(nil, nil, error)
            }
        }
    }

    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await perform { dataTask(with: request, completionHandler: $0) }
    }

    public func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse) {
        try await perform { uploadTask(with: request, from: bodyData, completionHandler: $0) }
    }

    /// Runs the task `make` returns to completion, cancelling it if the calling task is cancelled.
    private func perform(
        _ make: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> any NetworkSessionTask,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> (Data, URLResponse) {
        let handle = CancellableTaskHandle()
        return try await context.withTaskCancellationHandler {
            try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
                let task = make { data, response, error in
                    if let response, error == nil {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.unknown))
                    }
                }
                handle.start(task)
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

/// The task an `async` request waits on, for its cancellation handler: a cancellation that comes
/// before the task exists (the calling task was already cancelled) cancels it as it starts.
private final class CancellableTaskHandle: @unchecked Sendable {
    // @unchecked: one simulated thread at a time; no scheduling point between a read and its write.
    private var task: (any NetworkSessionTask)?
    private var cancelled = false

    func start(_ task: any NetworkSessionTask) {
        self.task = task
        if cancelled { task.cancel() } else { task.resume() }
    }

    func cancel() {
        cancelled = true
        task?.cancel()
    }
}

extension WorkloadContext {
    /// The process's `URLSession.shared`: a ``SimulatedURLSession`` whose requests serve no
    /// declared work. Pass it where the app takes an `any NetworkSession`.
    ///
    /// ```swift
    /// let feed = FeedLoader(session: context.urlSession)
    /// ```
    public var urlSession: SimulatedURLSession {
        let network = application.network
        if let made = network.sharedSession { return made }
        let made = SimulatedURLSession(context: self, work: .none)
        network.sharedSession = made
        return made
    }

    /// A new session of this process whose requests serve `work` (``SimulatedURLSession/Work``).
    ///
    /// ```swift
    /// let uploads = PhotoUploadQueue(host: context.application, session: context.makeURLSession(work: .eachRequest))
    /// ```
    public func makeURLSession(work: SimulatedURLSession.Work) -> SimulatedURLSession {
        SimulatedURLSession(context: self, work: work)
    }
}
