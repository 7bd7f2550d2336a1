import BackgroundTaskKit
import BackgroundTaskNetwork
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The URLSession-shaped network over the simulated one (issue 35): completion handlers get a
/// response or the `URLError` iOS gives background work, at the virtual time the simulated network
/// decides; cancellation in the completion and `async` forms.
@Suite struct SimulatedURLSessionTests {
    /// What one completion handler got, and when.
    struct Received: Equatable {
        var time: VirtualTime
        var status: Int? = nil
        var code: URLError.Code? = nil
        /// Whether the handler ran on the main queue (never: on the session's delegate queue).
        var onMain = false
    }

    /// A scripted device whose requests take exactly `seconds`.
    static func device(requestSeconds seconds: Int64, usesAsync: Bool = false) -> ScriptedDevice {
        var environment = EnvironmentConfig.scripted
        environment.work = .init(minimum: .seconds(seconds), maximum: .seconds(seconds))
        return ScriptedDevice(environment: environment, usesAsync: usesAsync)
    }

    /// `POST https://photos.example.com/upload/IMG_1.HEIC`.
    static func uploadRequest(timeoutSeconds: TimeInterval = 60) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://photos.example.com/upload/IMG_1.HEIC")!)
        request.httpMethod = "POST"
        request.timeoutInterval = timeoutSeconds
        return request
    }

    /// Makes an upload task at `time` on `session(context)` (the shared session by default),
    /// resumes it unless `resumes` is false, and cancels it at `cancelAt`.
    static func upload(
        at time: VirtualTime, on script: ScriptedDevice, timeoutSeconds: TimeInterval = 60, resumes: Bool = true,
        cancelAt: VirtualTime? = nil, session: @escaping (WorkloadContext) -> any NetworkSession = { $0.urlSession },
        into results: Box<[Received]>
    ) {
        let task = Box<(any NetworkSessionTask)?>(nil)
        script.at(time) { script in
            let device = script.device
            let app = script.app
            let made = session(script.context).uploadTask(with: uploadRequest(timeoutSeconds: timeoutSeconds), from: Data()) {
                _, response, error in
                results.value.append(Received(time: device.now, status: (response as? HTTPURLResponse)?.statusCode,
                                              code: (error as? URLError)?.code, onMain: app.isMainThread))
            }
            task.value = made
            if resumes { made.resume() }
        }
        if let cancelAt { script.at(cancelAt) { _ in task.value?.cancel() } }
    }

    /// The outcomes of the `network.request` events, in order.
    static func outcomes(_ script: ScriptedDevice) -> [String] {
        script.events { if case .networkRequest(_, _, _, let outcome) = $0 { outcome } else { nil } }.map(\.value)
    }

    @Test("a request that ends before suspension completes with status 200, off the main queue")
    func success() {
        let script = Self.device(requestSeconds: 2)
        let results = Box<[Received]>([])
        script.at(.zero) { $0.launch() }
        Self.upload(at: .seconds(1), on: script, into: results)
        script.run(until: .seconds(10))
        #expect(results.value == [Received(time: .seconds(3), status: 200, code: nil)])
        #expect(Self.outcomes(script) == ["start", "success"])
        let names = script.events { if case .networkRequest(_, let name, _, _) = $0 { name } else { nil } }
        #expect(names.map(\.value) == ["POST /upload/IMG_1.HEIC", "POST /upload/IMG_1.HEIC"])
    }

    @Test("suspension, network loss, no network and a timeout each give their NSURLErrorDomain code")
    func failures() {
        let script = Self.device(requestSeconds: 10)
        let results = Box<[Received]>([])
        script.at(.zero) { $0.launch() }
        Self.upload(at: .seconds(1), on: script, into: results)                       // lost: network down at 4 s
        script.at(.seconds(4)) { $0.perform(.networkDown) }
        Self.upload(at: .seconds(5), on: script, into: results)                       // no network
        script.at(.seconds(6)) { $0.perform(.networkUp) }
        Self.upload(at: .seconds(7), on: script, timeoutSeconds: 2, into: results)    // times out at 9 s
        Self.upload(at: .seconds(20), on: script, into: results)                      // lost: suspended at 22 s
        script.at(.seconds(21)) { $0.home() }
        script.at(.seconds(40)) { $0.open() }
        script.run(until: .seconds(60))
        #expect(results.value == [
            Received(time: .seconds(4), status: nil, code: .networkConnectionLost),
            Received(time: .seconds(5), status: nil, code: .notConnectedToInternet),
            Received(time: .seconds(9), status: nil, code: .timedOut),
            Received(time: .seconds(40), status: nil, code: .networkConnectionLost),
        ])
    }

    @Test("cancel() fails a request in flight with .cancelled at once; before resume() it starts nothing")
    func cancellation() {
        let script = Self.device(requestSeconds: 10)
        let results = Box<[Received]>([])
        script.at(.zero) { $0.launch() }
        Self.upload(at: .seconds(1), on: script, cancelAt: .seconds(2), into: results)
        Self.upload(at: .seconds(3), on: script, resumes: false, cancelAt: .seconds(4), into: results)
        script.run(until: .seconds(30))
        #expect(results.value == [
            Received(time: .seconds(2), status: nil, code: .cancelled),
            Received(time: .seconds(4), status: nil, code: .cancelled),
        ])
        #expect(Self.outcomes(script) == ["start", "cancelled"])
        #expect(script.events { if case .probe(let name) = $0 { name } else { nil } }.map(\.value) == ["url-request-cancelled"])
    }

    @Test("with .eachRequest each request is declared work from resume() to its completion, cancelled by cancel()")
    func eachRequestIsWork() {
        let script = Self.device(requestSeconds: 2)
        let results = Box<[Received]>([])
        let session = { (context: WorkloadContext) -> any NetworkSession in context.makeURLSession(work: .eachRequest) }
        script.at(.zero) { $0.launch() }
        Self.upload(at: .seconds(1), on: script, session: session, into: results)
        Self.upload(at: .seconds(5), on: script, cancelAt: .seconds(6), session: session, into: results)
        script.run(until: .seconds(30))
        let started = script.events { if case .workStarted(_, let name) = $0 { name } else { nil } }
        let finished = script.events { if case .workFinished(_, _, let cancelled) = $0 { cancelled } else { nil } }
        #expect(started.map(\.time) == [.seconds(1), .seconds(5)])
        #expect(started.allSatisfy { $0.value == "POST /upload/IMG_1.HEIC" })
        #expect(finished.map(\.time) == [.seconds(3), .seconds(6)])
        #expect(finished.map(\.value) == [false, true])
        let works = script.events { if case .networkRequest(_, _, let work, _) = $0 { work } else { nil } }
        #expect(!works.isEmpty && works.allSatisfy { $0.value != 0 })
    }

    @Test("a download hands back a location and its response; the shared session is one per process")
    func download() {
        let script = Self.device(requestSeconds: 2)
        let received = Box<[(VirtualTime, String?, Int?)]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            let device = script.device
            #expect(script.context.urlSession === script.context.urlSession)
            script.context.urlSession.downloadTask(with: URLRequest(url: URL(string: "https://example.com/episode.mp3")!)) {
                location, response, _ in
                received.value.append((device.now, location?.lastPathComponent, (response as? HTTPURLResponse)?.statusCode))
            }.resume()
        }
        script.run(until: .seconds(10))
        #expect(received.value.map(\.0) == [.seconds(3)])
        #expect(received.value.map(\.1) == ["CFNetworkDownload_1.tmp"])
        #expect(received.value.map(\.2) == [200])
        #expect(Self.outcomes(script) == ["start", "success"])
    }

    @Test("data(for:) returns the response; cancelling its task throws URLError(.cancelled) at once")
    func asyncForms() {
        let script = Self.device(requestSeconds: 10, usesAsync: true)
        let results = Box<[Received]>([])
        let running = Box<Task<Void, Never>?>(nil)
        script.at(.zero) { $0.launch() }
        for start in [VirtualTime.seconds(1), .seconds(20)] {
            script.at(start) { script in
                let session = script.context.urlSession
                let device = script.device
                running.value = Task(executorPreference: script.context.taskExecutor) {
                    do {
                        let (_, response) = try await session.data(for: Self.uploadRequest())
                        results.value.append(Received(time: device.now, status: (response as? HTTPURLResponse)?.statusCode))
                    } catch {
                        results.value.append(Received(time: device.now, code: (error as? URLError)?.code))
                    }
                }
            }
        }
        script.at(.seconds(25)) { _ in running.value?.cancel() }
        script.run(until: .seconds(60))
        #expect(results.value == [
            Received(time: .seconds(11), status: 200),
            Received(time: .seconds(25), code: .cancelled),
        ])
        #expect(Self.outcomes(script) == ["start", "success", "start", "cancelled"])
    }

    @Test("a task cancelled before data(for:) starts no request and throws URLError(.cancelled)")
    func asyncAlreadyCancelled() {
        let script = Self.device(requestSeconds: 10, usesAsync: true)
        let results = Box<[Received]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            let session = script.context.urlSession
            let device = script.device
            let task = Task(executorPreference: script.context.taskExecutor) {
                do {
                    _ = try await session.data(for: Self.uploadRequest())
                    results.value.append(Received(time: device.now, status: 200))
                } catch {
                    results.value.append(Received(time: device.now, code: (error as? URLError)?.code))
                }
            }
            task.cancel()
        }
        script.run(until: .seconds(30))
        #expect(results.value == [Received(time: .seconds(1), code: .cancelled)])
        #expect(Self.outcomes(script).isEmpty)
    }

    @Test("a path monitor hears the current path on start and every network change on its queue, until cancelled")
    func pathMonitor() {
        let script = Self.device(requestSeconds: 1)
        let heard = Box<[(VirtualTime, NetworkPath.Status, onMain: Bool)]>([])
        let monitor = Box<SimulatedPathMonitor?>(nil)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            let device = script.device
            let app = script.app
            let made = script.context.pathMonitor()
            made.pathUpdateHandler = { path in heard.value.append((device.now, path.status, app.isMainThread)) }
            made.start(queue: script.app.mainQueue)
            monitor.value = made
        }
        script.at(.seconds(5)) { $0.perform(.networkDown) }
        script.at(.seconds(9)) { $0.perform(.networkUp) }
        script.at(.seconds(10)) { _ in monitor.value?.cancel() }
        script.at(.seconds(12)) { $0.perform(.networkDown) }
        script.run(until: .seconds(20))
        #expect(heard.value.map(\.0) == [.seconds(1), .seconds(5), .seconds(9)])
        #expect(heard.value.map(\.1) == [.satisfied, .unsatisfied, .satisfied])
        #expect(heard.value.map(\.onMain) == [true, true, true])  // the queue it was started on
        #expect(monitor.value?.currentPath.status == .satisfied)
    }
}
