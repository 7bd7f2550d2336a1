import DeterministicSimulation

/// The work items a workload has in flight, so an expiration handler can stop them all, from
/// whichever thread it runs on.
///
/// ```swift
/// let inFlight = WorkRegistry()
/// guard let work = inFlight.start("upload", context, unless: { operation.isCancelled }) else { return }
/// let task = BackgroundTaskToken(name: "upload", host: app) { inFlight.cancelAll() }
/// ```
///
/// Contract: thread-safe under the simulator's threads: a simulated lock guards the list, and
/// ``start(_:_:unless:)`` checks its condition and registers the work under that lock, so a
/// ``cancelAll()`` on another thread (an expiration handler on main) either sees the new work and
/// cancels it, or runs first and the condition (set before it) stops the work from starting.
/// Checking the condition before taking the lock would leave a window in which new work escapes
/// the cancellation (found by the harness under preemption).
final class WorkRegistry: @unchecked Sendable {
    // @unchecked: every access to `items` holds `lock` (a simulated lock: one simulated thread at
    // a time, each handoff a happens-before edge).
    private var items: [(work: WorkItem, onCancel: (@Sendable () -> Void)?)] = []
    private var lock: SimulatedLock?

    /// Declares a new piece of work and remembers it; nil, declaring nothing, if `cancelled()`
    /// is true under the registry's lock.
    /// `onCancel` runs after the item is cancelled by ``cancelAll()`` (outside the lock): for
    /// example, finishing the operation the work belongs to, so its queue moves on at once.
    func start(
        _ name: String, _ context: WorkloadContext, unless cancelled: () -> Bool = { false },
        onCancel: (@Sendable () -> Void)? = nil
    ) -> WorkItem? {
        let lock = self.lock ?? context.makeLock("work registry")
        self.lock = lock
        return lock.withLock {
            items.removeAll { $0.work.isDone }
            guard !cancelled() else { return nil }
            let item = context.startWork(name)
            items.append((item, onCancel))
            return item
        }
    }

    /// Cancels every unfinished item.
    func cancelAll() {
        let cancelled: [(work: WorkItem, onCancel: (@Sendable () -> Void)?)] = lock.map { lock in
            lock.withLock {
                defer { items.removeAll() }
                return items
            }
        } ?? []
        for item in cancelled where !item.work.isDone {
            item.work.cancel()
            item.onCancel?()
        }
    }
}
