/// An operation whose work finishes asynchronously: the closure gets the operation and calls
/// ``BackgroundOperation/finish()`` when everything is done, however many queues it hops
/// through on the way.
///
/// ```swift
/// queue.addOperation(AsyncOperation(name: "fetch-feed") { op in
///     feed.load { result in
///         store.save(result)
///         op.finish()        // only now does the queue move on (and may end its task)
///     }
/// })
/// ```
///
/// Contract: as ``BackgroundOperation``; `finish()` must be called on every path, exactly once
/// counts (later calls are ignored). Check ``BackgroundOperation/isCancelled`` to stop early.
public final class AsyncOperation: BackgroundOperation, @unchecked Sendable {
    // @unchecked: `body` is immutable; the rest is the base's Mutex-guarded state.
    private let body: @Sendable (AsyncOperation) -> Void

    /// An operation that runs `body` and finishes when `body` calls `finish()`.
    public init(name: String = "async operation", _ body: @escaping @Sendable (AsyncOperation) -> Void) {
        self.body = body
        super.init(name: name)
    }

    override public func execute() { body(self) }
}

/// An operation whose work is done when its closure returns.
///
/// ```swift
/// queue.addOperation(SyncOperation(name: "compact-db") { database.compact() })
/// ```
///
/// Contract: as ``BackgroundOperation``; it finishes right after `body` returns.
public final class SyncOperation: BackgroundOperation, @unchecked Sendable {
    // @unchecked: `body` is immutable; the rest is the base's Mutex-guarded state.
    private let body: @Sendable () -> Void

    /// An operation that runs `body`.
    public init(name: String = "sync operation", _ body: @escaping @Sendable () -> Void) {
        self.body = body
        super.init(name: name)
    }

    override public func execute() {
        body()
        finish()
    }
}
