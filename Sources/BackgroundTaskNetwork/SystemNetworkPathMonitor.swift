public import BackgroundTaskKit
import Synchronization
#if canImport(Network)
import Dispatch
import Network
#endif

/// The production ``NetworkPathMonitor``: `NWPathMonitor` on Apple platforms. On Linux, which has
/// no Network framework, it reports `.satisfied` once on start and never changes: a server or CI
/// machine is taken to be online.
///
/// ```swift
/// let monitor = SystemNetworkPathMonitor()
/// monitor.pathUpdateHandler = { path in if path.status == .satisfied { outbox.flush() } }
/// monitor.start(queue: DispatchWorkQueue(.main))
/// ```
///
/// Contract: ``NetworkPathMonitor``'s. `NWPathMonitor` runs on a private serial queue; each path
/// is then handed to the start queue, in the order it came.
public final class SystemNetworkPathMonitor: NetworkPathMonitor, @unchecked Sendable {
    // @unchecked: `NWPathMonitor` is not declared Sendable in every SDK; it is touched only in
    // `start` and `cancel`, which it allows from any thread. The rest is behind `state`.
    private struct State {
        var handler: (@Sendable (NetworkPath) -> Void)?
        var path = NetworkPath(status: .unsatisfied)
        var queue: (any WorkQueue)?
        var started = false
        var cancelled = false
    }

    private let state = Mutex(State())
    #if canImport(Network)
    private let monitor = NWPathMonitor()
    private let monitorQueue = DispatchQueue(label: "BackgroundTaskNetwork.SystemNetworkPathMonitor")
    #endif

    /// A monitor of every interface, not started.
    public init() {}

    public var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? {
        get { state.withCriticalSection { $0.handler } }
        set { state.withCriticalSection { $0.handler = newValue } }
    }

    public var currentPath: NetworkPath { state.withCriticalSection { $0.path } }

    public func start(queue: any WorkQueue) {
        let starts = state.withCriticalSection { state in
            guard !state.started, !state.cancelled else { return false }
            state.started = true
            state.queue = queue
            return true
        }
        guard starts else { return }
        #if canImport(Network)
        monitor.pathUpdateHandler = { [weak self] path in
            self?.report(NetworkPath(status: NetworkPath.Status(path.status)))
        }
        monitor.start(queue: monitorQueue)
        #else
        report(NetworkPath(status: .satisfied))
        #endif
    }

    public func cancel() {
        state.withCriticalSection { $0.cancelled = true }
        #if canImport(Network)
        monitor.cancel()
        #endif
    }

    /// Records `path` and hands it to the handler on the start queue.
    private func report(_ path: NetworkPath) {
        let queue = state.withCriticalSection { state -> (any WorkQueue)? in
            guard !state.cancelled else { return nil }
            state.path = path
            return state.queue
        }
        queue?.async { [self] in
            guard let handler = state.withCriticalSection({ $0.cancelled ? nil : $0.handler }) else { return }
            handler(path)
        }
    }
}

#if canImport(Network)
extension NetworkPath.Status {
    /// The status an `NWPath` reports.
    init(_ status: NWPath.Status) {
        switch status {
        case .satisfied: self = .satisfied
        case .requiresConnection: self = .requiresConnection
        case .unsatisfied: self = .unsatisfied
        @unknown default: self = .unsatisfied
        }
    }
}
#endif
