import Synchronization

/// An operation queue that holds exactly one background task while it has work and none when it
/// is idle: what Backgroundable's `BackgroundQueue` set out to be, with its expiry bug (P3)
/// fixed and without `OperationQueue`, so it runs on the host's queues and is deterministic
/// under the simulator.
///
/// ```swift
/// let uploads = BackgroundOperationQueue(name: "uploads", host: app) {
///     uploader.cancelAll()                  // time ran out: stop quickly
/// }
/// uploads.addOperation { journal.flush() }
/// uploads.addOperation(AsyncOperation(name: "upload") { op in
///     uploader.send(journal.pending) { _ in op.finish() }
/// })
/// ```
///
/// Contract:
/// - The task begins in the ``addOperation(_:)`` call that finds the queue idle, before the
///   operation is dispatched, and ends when the last unfinished operation finishes, including
///   operations added while the queue was draining. Two calls racing cannot begin two tasks.
/// - Operations start in the order they were added, at most ``maxConcurrentOperationCount``
///   at a time, on the host's background queue; ``addSequentialOperations(_:)`` also chains
///   its operations so each starts after the previous one finished.
/// - On expiry (on the main queue): the operations not yet started are cancelled and dropped,
///   the executing ones are cancelled (``BackgroundOperation/isCancelled``), `onExpiration`
///   runs, and then the task ends, inside the system's handler. Work added later begins a new
///   task (the system decides whether it gets time, A3.4).
/// - Thread-safe; a queue lives at least as long as it has operations executing.
public final class BackgroundOperationQueue: Sendable {
    private struct Entry {
        var operation: BackgroundOperation
        /// Starts only after this one finished (sequential operations).
        var after: BackgroundOperation?
    }

    private struct State {
        var pending: [Entry] = []
        var executing: [BackgroundOperation] = []
    }

    /// The queue's name; also the background task's name.
    public let name: String
    /// How many operations may execute at once (at least 1).
    public let maxConcurrentOperationCount: Int
    private let host: any BackgroundTaskHost & ExecutionHost
    private let state = Mutex(State())
    private let holder: TaskHolder
    private let onExpiration: (@Sendable () -> Void)?

    /// A queue running on `host`'s background queue.
    ///
    /// - Parameters:
    ///   - name: names the queue's background task ("uploads").
    ///   - maxConcurrentOperationCount: 1 (the default) runs operations one after another.
    ///   - onExpiration: runs on the main queue when time runs out, after the operations were
    ///     cancelled and before the task ends.
    public init(
        name: String, host: any BackgroundTaskHost & ExecutionHost, maxConcurrentOperationCount: Int = 1,
        onExpiration: (@Sendable () -> Void)? = nil
    ) {
        self.name = name
        self.host = host
        self.maxConcurrentOperationCount = max(1, maxConcurrentOperationCount)
        self.onExpiration = onExpiration
        self.holder = TaskHolder(name: name, host: host)
        holder.onExpiration { [weak self] in self?.expire() }
    }

    /// Adds an operation. Adding one that already belongs to a queue does nothing.
    public func addOperation(_ operation: BackgroundOperation) {
        enqueue([operation], sequential: false)
    }

    /// Adds a closure as a ``SyncOperation``.
    public func addOperation(name: String = "block", _ block: @escaping @Sendable () -> Void) {
        addOperation(SyncOperation(name: name, block))
    }

    /// Adds operations that run one after another, each starting after the previous one
    /// finished, whatever ``maxConcurrentOperationCount`` is. Other operations may run
    /// alongside them.
    public func addSequentialOperations(_ operations: [BackgroundOperation]) {
        enqueue(operations, sequential: true)
    }

    /// Cancels every operation: pending ones are dropped, executing ones see `isCancelled`.
    public func cancelAllOperations() {
        dropPending()
        refresh()
    }

    /// Operations added and not yet finished (pending and executing).
    public var operationCount: Int { state.withCriticalSection { $0.pending.count + $0.executing.count } }

    /// True when the queue has no unfinished operation.
    public var isIdle: Bool { operationCount == 0 }

    /// True while the queue holds a running background task.
    public var holdsBackgroundTask: Bool { holder.isHolding }

    // MARK: Running

    private func enqueue(_ operations: [BackgroundOperation], sequential: Bool) {
        let claimed = operations.filter { $0.claim() }
        guard !claimed.isEmpty else { return }
        state.withCriticalSection { state in
            var previous: BackgroundOperation?
            for operation in claimed {
                state.pending.append(Entry(operation: operation, after: sequential ? previous : nil))
                previous = operation
            }
        }
        refresh()
    }

    /// Matches the task to the work, then starts what may start. The task is begun before any
    /// operation is dispatched.
    private func refresh() {
        holder.reconcile { state.withCriticalSection { !$0.pending.isEmpty || !$0.executing.isEmpty } }
        let startable: [BackgroundOperation] = state.withCriticalSection { state in
            var started: [BackgroundOperation] = []
            var index = 0
            while index < state.pending.count, state.executing.count < maxConcurrentOperationCount {
                let entry = state.pending[index]
                if entry.after?.isFinished ?? true {
                    state.pending.remove(at: index)
                    state.executing.append(entry.operation)
                    started.append(entry.operation)
                } else {
                    index += 1
                }
            }
            return started
        }
        for operation in startable {
            host.backgroundQueue.async {
                operation.start { self.finished(operation) }
            }
        }
    }

    private func finished(_ operation: BackgroundOperation) {
        state.withCriticalSection { state in
            state.executing.removeAll { $0 === operation }
        }
        refresh()
    }

    private func dropPending() {
        let (dropped, executing) = state.withCriticalSection { state in
            defer { state.pending.removeAll() }
            return (state.pending.map(\.operation), state.executing)
        }
        for operation in dropped { operation.drop() }
        for operation in executing { operation.cancel() }
    }

    /// The held task's expiry (main queue): stop the work, tell the owner; the token then ends
    /// the task before the system's handler returns.
    private func expire() {
        dropPending()
        onExpiration?()
    }
}
