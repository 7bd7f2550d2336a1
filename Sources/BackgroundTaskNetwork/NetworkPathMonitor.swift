public import BackgroundTaskKit

/// Whether the device can reach the network, as `NWPath`: what a ``NetworkPathMonitor`` reports.
///
/// ```swift
/// if monitor.currentPath.status == .satisfied { uploads.resume() }
/// ```
public struct NetworkPath: Sendable, Hashable, CustomStringConvertible {
    /// `NWPath.Status`'s cases.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// The network is usable.
        case satisfied
        /// No network.
        case unsatisfied
        /// Not usable now, but could be once a connection is made (a VPN on demand, for example).
        case requiresConnection
    }

    /// Whether the network is usable.
    public var status: Status

    /// A path with `status`.
    public init(status: Status) {
        self.status = status
    }

    public var description: String { status.rawValue }
}

/// Reachability as a callback, shaped like `NWPathMonitor`: set ``pathUpdateHandler``, call
/// ``start(queue:)``, and the handler runs on that queue with the first path and each change.
///
/// ```swift
/// let monitor: any NetworkPathMonitor = SystemNetworkPathMonitor()   // context.pathMonitor() in the simulator
/// monitor.pathUpdateHandler = { path in
///     if path.status == .satisfied { uploads.retryPending() }
/// }
/// monitor.start(queue: host.mainQueue)
/// ```
///
/// Contract (as `NWPathMonitor`'s): after ``start(queue:)`` the handler runs on `queue`, once with
/// the current path and then on every change of status, in order; ``currentPath`` is the last path
/// reported (`.unsatisfied` before the first); after ``cancel()`` the handler is not called again
/// and the monitor cannot be started again. A second ``start(queue:)`` does nothing. Keep a
/// reference to the monitor for as long as you want its updates, as with `NWPathMonitor`.
public protocol NetworkPathMonitor: AnyObject, Sendable {
    /// Called on the start queue with each new path.
    var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? { get set }
    /// The last path reported.
    var currentPath: NetworkPath { get }
    /// Starts reporting paths on `queue`.
    func start(queue: any WorkQueue)
    /// Stops reporting, for good.
    func cancel()
}
