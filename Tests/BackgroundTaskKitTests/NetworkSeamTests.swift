import BackgroundTaskKit
import BackgroundTaskNetwork
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The production path monitor where it can run without a device, and a stand-in session for the
/// guide's network example (the simulator's session lives in BackgroundTaskSimulator, which these
/// tests do not link).
@Suite struct NetworkSeamTests {
    #if !canImport(Network)
    @Test("without the Network framework the system monitor reports satisfied once, on its queue, until cancelled")
    func linuxMonitorIsSatisfied() {
        let app = FakeHost()
        let heard = Recorder<NetworkPath.Status>()
        let monitor = SystemNetworkPathMonitor()
        monitor.pathUpdateHandler = { heard.append($0.status) }
        #expect(monitor.currentPath.status == .unsatisfied)
        monitor.start(queue: app.mainQueue)
        monitor.start(queue: app.mainQueue)  // a second start does nothing
        #expect(heard.all.isEmpty)           // on the queue, never inside start
        app.runUntilIdle()
        #expect(heard.all == [.satisfied] && monitor.currentPath.status == .satisfied)
        monitor.cancel()
        monitor.start(queue: app.mainQueue)
        app.runUntilIdle()
        #expect(heard.all == [.satisfied])
    }
    #endif
}

/// A session whose requests all end with `error` (success when nil) on the fake host's main
/// queue, when resumed: enough to run the guide's example.
final class StandInSession: NetworkSession {
    private let app: FakeHost
    private let error: URLError?

    init(app: FakeHost, failingWith error: URLError? = nil) {
        self.app = app
        self.error = error
    }

    func dataTask(
        with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        let error = error
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)
        return StandInTask(queue: app.mainQueue) {
            if let error { completionHandler(nil, nil, error) } else { completionHandler(Data(), response, nil) }
        }
    }

    func uploadTask(
        with request: URLRequest, from bodyData: Data?,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        dataTask(with: request, completionHandler: completionHandler)
    }

    func downloadTask(
        with request: URLRequest, completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> any NetworkSessionTask {
        dataTask(with: request) { _, response, error in completionHandler(nil, response, error) }
    }

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        if let error { throw error }
        return (Data(), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!)
    }

    func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse) {
        try await data(for: request)
    }
}

/// Runs its completion on `queue` when resumed.
final class StandInTask: NetworkSessionTask {
    private let queue: any WorkQueue
    private let complete: @Sendable () -> Void

    init(queue: any WorkQueue, complete: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.complete = complete
    }

    func resume() { queue.async(complete) }
    func cancel() {}
}

/// A monitor that reports `.satisfied` on start, on the start queue.
final class StandInPathMonitor: NetworkPathMonitor, @unchecked Sendable {
    // @unchecked: a test touches it on one thread.
    var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)?
    private(set) var currentPath = NetworkPath(status: .unsatisfied)

    func start(queue: any WorkQueue) {
        currentPath = NetworkPath(status: .satisfied)
        let path = currentPath
        queue.async { [self] in pathUpdateHandler?(path) }
    }

    func cancel() {}
}
