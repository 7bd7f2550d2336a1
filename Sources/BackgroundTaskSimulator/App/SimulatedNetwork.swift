import BackgroundTaskKit
import DeterministicSimulation

/// Why a simulated request failed: the `NSURLErrorDomain` codes a background-work app meets.
public enum NetworkError: String, Error, Sendable, CaseIterable, CustomStringConvertible {
    /// -1005, "The network connection was lost": the connection closed while the request was in
    /// flight, because the app was suspended (iOS defuncts a suspended app's connections) or the
    /// device lost its network.
    case networkConnectionLost
    /// -1009: the device had no network when the request started.
    case notConnectedToInternet
    /// -1001: no answer within the request's timeout.
    case timedOut
    /// -999: the app cancelled the request (``SimulatedNetwork/cancel(_:)``).
    case cancelled

    public var description: String { rawValue }
}

/// The process's network: requests whose completion can fail, so that error and retry paths run.
///
/// ```swift
/// context.network.request("send-messages", for: work) { result in
///     if case .failure = result { work.cancel() } else { work.finish() }   // on the main queue
/// }
/// ```
///
/// Contract (checked with DTS answers; the reference has no rule for it):
/// - A request started with the network down fails at once with ``NetworkError/notConnectedToInternet``.
/// - Otherwise it takes a duration drawn from the environment's work range and succeeds, unless
///   that is longer than `timeout` (``NetworkError/timedOut`` at the timeout), the device loses
///   its network meanwhile, or the app is suspended meanwhile: "Nowadays iOS will defunct things
///   as soon as the app gets suspended" (DTS, forum thread 802375), so the request fails with
///   ``NetworkError/networkConnectionLost``, and the app learns it when it runs again (the
///   completion waits on the frozen main queue until the app is resumed). A process that dies
///   never hears back.
/// - Completions run on the main queue (or the queue the request names), exactly once per
///   request; ``cancel(_:)`` of a request in flight fails it with ``NetworkError/cancelled``.
///   Each start and outcome is a `network.request` event naming the work item it serves.
public final class SimulatedNetwork: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    private struct InFlight {
        let id: Int
        let name: String
        let work: Int
        let timer: JobID
        let queue: any WorkQueue
        let completion: @Sendable (Result<Void, NetworkError>) -> Void
    }

    private unowned let application: SimulatedApplication
    private var inFlight: [InFlight] = []
    private var nextID = 1
    /// The started path monitors, told of every network change (``SimulatedPathMonitor``).
    var pathMonitors: [SimulatedPathMonitor] = []
    /// The process's shared session (``WorkloadContext/urlSession``), made on first use.
    var sharedSession: SimulatedURLSession?

    init(application: SimulatedApplication) {
        self.application = application
    }

    /// Whether a request is in flight.
    public var hasRequestsInFlight: Bool { !inFlight.isEmpty }

    /// Starts a request named `name` for `work` (0 when none); `completion` runs once on the
    /// main queue with its outcome. Returns the request's number, for ``cancel(_:)`` (0 when the
    /// process is gone and nothing started).
    @discardableResult
    public func request(
        _ name: String, for work: WorkItem? = nil, timeout: Duration = .seconds(60),
        completion: @escaping @Sendable (Result<Void, NetworkError>) -> Void
    ) -> Int {
        request(name, for: work, timeout: timeout, on: nil, completion: completion)
    }

    /// ``request(_:for:timeout:completion:)`` whose completion runs on `queue` (the main queue
    /// when nil): a ``SimulatedURLSession``'s delegate queue.
    func request(
        _ name: String, for work: WorkItem?, timeout: Duration, on queue: (any WorkQueue)?,
        completion: @escaping @Sendable (Result<Void, NetworkError>) -> Void
    ) -> Int {
        let device = application.device
        device.scheduler.schedulingPoint()
        guard application.isAlive else { return 0 }
        let id = nextID
        nextID += 1
        let workID = work?.id ?? 0
        let queue = queue ?? application.mainQueue
        device.emit(.networkRequest(request: id, name: name, work: workID, outcome: "start"))
        guard device.isNetworkAvailable else {
            deliver(id: id, name: name, work: workID, .failure(.notConnectedToInternet), on: queue, to: completion)
            return id
        }
        let timing = device.environment.work
        let duration = device.choices.duration(in: timing.minimum...timing.maximum)
        let limit = VirtualDuration(timeout)
        let outcome: Result<Void, NetworkError> = duration > limit ? .failure(.timedOut) : .success(())
        let timer = device.scheduler.asyncAfter(min(duration, limit), on: device.systemQueue) { [self] in
            finish(id, outcome)
        }
        inFlight.append(InFlight(id: id, name: name, work: workID, timer: timer, queue: queue, completion: completion))
        return id
    }

    /// Cancels request `id` if it is in flight: its completion gets ``NetworkError/cancelled``.
    /// Returns whether it was in flight (false once its outcome is decided).
    @discardableResult
    public func cancel(_ id: Int) -> Bool {
        application.device.scheduler.schedulingPoint()
        guard let index = inFlight.firstIndex(where: { $0.id == id }) else { return false }
        let request = inFlight.remove(at: index)
        application.device.scheduler.cancel(request.timer)
        deliver(request, .failure(.cancelled))
        return true
    }

    /// Fails every request in flight with `error` (suspension, network loss).
    func failAll(_ error: NetworkError) {
        guard !inFlight.isEmpty else { return }
        let failing = inFlight
        inFlight = []
        for request in failing {
            application.device.scheduler.cancel(request.timer)
            deliver(request, .failure(error))
        }
    }

    private func finish(_ id: Int, _ outcome: Result<Void, NetworkError>) {
        guard application.isAlive, let index = inFlight.firstIndex(where: { $0.id == id }) else { return }
        deliver(inFlight.remove(at: index), outcome)
    }

    private func deliver(_ request: InFlight, _ outcome: Result<Void, NetworkError>) {
        deliver(id: request.id, name: request.name, work: request.work, outcome, on: request.queue, to: request.completion)
    }

    private func deliver(
        id: Int, name: String, work: Int, _ outcome: Result<Void, NetworkError>, on queue: any WorkQueue,
        to completion: @escaping @Sendable (Result<Void, NetworkError>) -> Void
    ) {
        let text: String
        switch outcome {
        case .success: text = "success"
        case .failure(let error): text = error.rawValue
        }
        application.device.emit(.networkRequest(request: id, name: name, work: work, outcome: text))
        queue.async { completion(outcome) }
    }
}

extension SimulatedApplication {
    /// The process's network, made on first use.
    var network: SimulatedNetwork {
        if let made = core.network { return made }
        let made = SimulatedNetwork(application: self)
        core.network = made
        return made
    }

    /// Fails the requests in flight, if the process made any (suspension, network loss).
    func failRequestsInFlight(_ error: NetworkError) {
        core.network?.failAll(error)
    }
}

extension WorkloadContext {
    /// The process's network: requests whose completion can fail (``SimulatedNetwork``).
    public var network: SimulatedNetwork { application.network }
}
