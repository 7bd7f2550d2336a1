public import BackgroundTaskKit
public import BackgroundTaskNetwork

/// A ``BackgroundTaskNetwork/NetworkPathMonitor`` over the simulated device's network: the
/// environment's `networkDown` and `networkUp` actions reach the app's `pathUpdateHandler`.
///
/// ```swift
/// let monitor = context.pathMonitor()
/// monitor.pathUpdateHandler = { path in
///     if path.status == .satisfied { outbox.retryPending() }
/// }
/// monitor.start(queue: context.application.mainQueue)
/// ```
///
/// Contract: ``NetworkPathMonitor``'s. The status is `.satisfied` while the device has a network
/// and `.unsatisfied` while it has none; after ``start(queue:)`` the handler gets the current
/// path and then every change, each as a job on the start queue (which waits, like the app's
/// other queues, while the app is suspended). A monitor belongs to its process: it hears nothing
/// after the process ends. Draws nothing.
public final class SimulatedPathMonitor: NetworkPathMonitor, @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    public var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)?
    public private(set) var currentPath = NetworkPath(status: .unsatisfied)
    private unowned let application: SimulatedApplication
    private var queue: (any WorkQueue)?
    private var cancelled = false

    init(application: SimulatedApplication) {
        self.application = application
    }

    public func start(queue: any WorkQueue) {
        application.schedulingPoint()
        guard self.queue == nil, !cancelled, application.isAlive else { return }
        self.queue = queue
        application.network.pathMonitors.append(self)
        report(available: application.device.isNetworkAvailable)
    }

    public func cancel() {
        application.schedulingPoint()
        cancelled = true
        application.network.pathMonitors.removeAll { $0 === self }
    }

    /// Hands the path to the handler on the start queue.
    func report(available: Bool) {
        guard let queue, !cancelled else { return }
        let path = NetworkPath(status: available ? .satisfied : .unsatisfied)
        currentPath = path
        queue.async { [self] in
            guard !cancelled, let handler = pathUpdateHandler else { return }
            handler(path)
        }
    }
}

extension SimulatedApplication {
    /// Tells the process's path monitors the device's network changed.
    func networkPathChanged() {
        guard let network = core.network else { return }
        let available = device.isNetworkAvailable
        for monitor in network.pathMonitors { monitor.report(available: available) }
    }
}

extension WorkloadContext {
    /// A new path monitor of this process (`NWPathMonitor()` in the app), not started.
    ///
    /// ```swift
    /// let reachability = Reachability(monitor: context.pathMonitor())
    /// ```
    public func pathMonitor() -> SimulatedPathMonitor {
        SimulatedPathMonitor(application: application)
    }
}
