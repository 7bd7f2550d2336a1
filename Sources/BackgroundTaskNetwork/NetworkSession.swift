public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The part of `URLSession` background work uses, as a protocol: app code written against it runs
/// on a device over ``URLSessionNetworkSession`` and in the simulator over its simulated network
/// (`context.urlSession`), unchanged.
///
/// ```swift
/// let session: any NetworkSession = URLSessionNetworkSession(.shared)   // in the app
/// var request = URLRequest(url: URL(string: "https://photos.example.com/upload")!)
/// request.httpMethod = "POST"
/// let upload = session.uploadTask(with: request, from: photo) { data, response, error in
///     if let error = error as? URLError, error.code == .networkConnectionLost { return retryLater() }
///     markUploaded()
/// }
/// upload.resume()
/// ```
///
/// Contract (as `URLSession`'s): a task does nothing until ``NetworkSessionTask/resume()``; its
/// completion handler runs exactly once, on a queue of the session's (never inside `resume()` or
/// `cancel()`), with data and a response, or with an error that is a `URLError` in
/// `NSURLErrorDomain`. The codes background work meets: `.networkConnectionLost` (in flight when
/// the app was suspended, whose connections iOS defuncts, or when the network went away),
/// `.notConnectedToInternet`, `.timedOut` and `.cancelled` (after ``NetworkSessionTask/cancel()``).
/// The `async` forms throw the same errors; cancelling the calling task cancels the request, which
/// then throws `URLError(.cancelled)`, as `URLSession` does.
///
/// Why a separate product and not BackgroundTaskKit: `URLRequest`, `URLResponse` and `URLSession`
/// live in FoundationNetworking on Linux (which links libcurl). BackgroundTaskKit links Foundation
/// only; an app that does not use this seam should not pull FoundationNetworking in, so the seam
/// and its production implementation are the `BackgroundTaskNetwork` product beside it.
public protocol NetworkSession: AnyObject, Sendable {
    /// A task that sends `request` and hands back the response body.
    func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask

    /// A task that sends `request` with `bodyData` as its body (the photo, the outbox).
    func uploadTask(
        with request: URLRequest, from bodyData: Data?,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask

    /// A task that downloads `request`'s response to a temporary file, whose location the handler
    /// gets (move it before returning, as with `URLSession`).
    func downloadTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask

    /// Sends `request` and returns the response body; throws a `URLError`.
    func data(for request: URLRequest) async throws -> (Data, URLResponse)

    /// Sends `request` with `bodyData` as its body and returns the response body; throws a `URLError`.
    func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse)
}

/// A request made by a ``NetworkSession``, as `URLSessionTask`: started by ``resume()``, stopped
/// by ``cancel()``.
///
/// ```swift
/// let task = session.dataTask(with: request) { data, response, error in … }
/// task.resume()
/// task.cancel()   // the handler then gets URLError(.cancelled), unless it already completed
/// ```
///
/// Contract: ``resume()`` starts the request once (later calls do nothing); ``cancel()`` before
/// completion completes it with `URLError(.cancelled)`, after completion does nothing.
public protocol NetworkSessionTask: AnyObject, Sendable {
    /// Starts the request.
    func resume()
    /// Cancels the request if it has not completed.
    func cancel()
}
