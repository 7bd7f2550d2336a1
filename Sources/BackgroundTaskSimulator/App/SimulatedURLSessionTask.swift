public import BackgroundTaskNetwork
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request of a ``SimulatedURLSession``, as a `URLSessionTask`: a ``SimulatedNetwork``
/// request from `resume()`, its outcome handed to the app on the session's delegate queue.
///
/// ```swift
/// let task = context.urlSession.dataTask(with: request) { data, response, error in … }
/// task.resume()
/// ```
///
/// Contract: ``NetworkSessionTask``'s. `cancel()` before `resume()` completes the task with
/// `URLError(.cancelled)` and starts nothing; `resume()` after that, or twice, does nothing. The
/// work item the session's ``SimulatedURLSession/Work`` gives is found at `resume()`, and
/// cancelled at once by `cancel()`, even after completion (the app gave the work up).
public final class SimulatedURLSessionTask: NetworkSessionTask, @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time; each state change is
    // made before the next scheduling point, so a `cancel()` from another thread sees it.
    private enum State {
        case notStarted
        /// Inside `resume()`, before the network has a number for it.
        case starting
        case running(request: Int)
        /// Cancelled while starting: `resume()` cancels the request it gets.
        case cancelledWhileStarting
        case completed
    }

    private let session: SimulatedURLSession
    private let request: URLRequest
    private let completion: @Sendable (Result<URLResponse, URLError>) -> Void
    private var state = State.notStarted
    /// The work item the request serves, if any.
    private var work: WorkItem?
    /// Whether the task declared ``work`` itself (``SimulatedURLSession/Work/eachRequest``) and
    /// ends it at completion; a work item the harness gave is the harness's to end.
    private var ownsWork = false

    init(
        session: SimulatedURLSession, request: URLRequest,
        completion: @escaping @Sendable (Result<URLResponse, URLError>) -> Void
    ) {
        self.session = session
        self.request = request
        self.completion = completion
    }

    /// `"POST /photos/IMG_1.HEIC"`: the request's name in events and work items.
    private var name: String {
        let path = request.url?.path ?? ""
        return "\(request.httpMethod ?? "GET") \(path.isEmpty ? "/" : path)"
    }

    public func resume() {
        guard case .notStarted = state else { return }
        state = .starting
        switch session.work {
        case .none: break
        case .eachRequest:
            ownsWork = true
            work = session.context.startWork(name)
        case .servedBy(let serving): work = serving(request)
        }
        let timeout = Duration.milliseconds(Int64((request.timeoutInterval * 1000).rounded()))
        let id = session.network.request(name, for: work, timeout: timeout, on: session.delegateQueue) { [self] result in
            complete(result)
        }
        if case .cancelledWhileStarting = state {
            work?.cancel()
            session.network.cancel(id)
        } else {
            state = .running(request: id)
        }
    }

    public func cancel() {
        switch state {
        case .notStarted:
            state = .completed
            session.delegateQueue.async { [self] in completion(.failure(URLError(.cancelled))) }
        case .starting:
            state = .cancelledWhileStarting
        case .running(let id):
            work?.cancel()  // the app gave it up: no longer work in flight, whenever the handler runs
            if session.network.cancel(id) { session.context.probe("url-request-cancelled") }
        case .completed:
            // URLSession ignores it; but a served work item the app has not heard the end of
            // (its handler hops to main, say) is given up too: the app stopped waiting for it.
            work?.cancel()
        case .cancelledWhileStarting:
            break
        }
    }

    /// On the delegate queue: the network's outcome, handed to the app.
    private func complete(_ result: Result<Void, NetworkError>) {
        state = .completed
        switch result {
        case .success:
            if ownsWork { work?.finish() }
            let url = request.url ?? URL(fileURLWithPath: "/")
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])
            completion(.success(response ?? URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)))
        case .failure(let error):
            if ownsWork { work?.cancel() }
            completion(.failure(URLError(error.urlErrorCode)))
        }
    }
}

extension NetworkError {
    /// The `NSURLErrorDomain` code `URLSession` reports for this failure.
    var urlErrorCode: URLError.Code {
        switch self {
        case .networkConnectionLost: .networkConnectionLost
        case .notConnectedToInternet: .notConnectedToInternet
        case .timedOut: .timedOut
        case .cancelled: .cancelled
        }
    }
}
