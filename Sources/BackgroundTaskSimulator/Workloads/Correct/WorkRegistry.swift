/// The work items a workload has in flight, so an expiration handler can stop them all.
///
/// ```swift
/// let inFlight = WorkRegistry()
/// let work = inFlight.start("upload", context)
/// let task = BackgroundTaskToken(name: "upload", host: app) { inFlight.cancelAll() }
/// ```
///
/// Contract: confined to the run's thread, like the workload that owns it.
final class WorkRegistry: @unchecked Sendable {
    // @unchecked: workloads are confined to the run's thread.
    private var items: [WorkItem] = []

    /// Declares a new piece of work and remembers it.
    func start(_ name: String, _ context: WorkloadContext) -> WorkItem {
        items.removeAll { $0.isDone }
        let item = context.startWork(name)
        items.append(item)
        return item
    }

    /// Cancels every unfinished item (time ran out: the work stops).
    func cancelAll() {
        for item in items where !item.isDone { item.cancel() }
        items.removeAll()
    }
}
