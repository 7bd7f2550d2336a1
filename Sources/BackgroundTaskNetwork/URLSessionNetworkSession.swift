public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The production ``NetworkSession``: forwards to a `URLSession`.
///
/// ```swift
/// let uploads = PhotoUploadQueue(host: UIKitApplicationHost(), session: URLSessionNetworkSession(.shared))
/// ```
///
/// Contract: every call forwards to ``session`` unchanged; the tasks are its `URLSessionTask`s.
public final class URLSessionNetworkSession: NetworkSession {
    /// The session requests go through.
    public let session: URLSession

    /// Wraps `session` (`URLSession.shared` by default).
    public init(_ session: URLSession = .shared) {
        self.session = session
    }

    public func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        session.dataTask(with: request, completionHandler: completionHandler)
    }

    public func uploadTask(
        with request: URLRequest, from bodyData: Data?,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        session.uploadTask(with: request, from: bodyData, completionHandler: completionHandler)
    }

    public func downloadTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        session.downloadTask(with: request, completionHandler: completionHandler)
    }

    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await session.data(for: request)
    }

    public func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse) {
        try await session.upload(for: request, from: bodyData)
    }
}

/// `URLSessionTask` is a ``NetworkSessionTask`` as it is: `resume()` and `cancel()`.
extension URLSessionTask: NetworkSessionTask {}
