/// Why a run stopped on a deadlock: each blocked simulated thread and what it waits for.
///
/// ```swift
/// if let deadlock = scheduler.deadlock {
///     fail("no-deadlock", deadlock.description)
///     // thread "db" waits for lock "A" held by "io"; thread "io" waits for lock "B" held by "db"
/// }
/// ```
///
/// Contract: ``threads`` lists every blocked thread in creation order. A report is made when a
/// thread blocks and the wait-for chain (lock holder, the queue a `sync` targets) leads back to
/// it, or when no thread can run, no job can start and no timed wait can end while a thread
/// waits without a timeout.
public struct DeadlockReport: Hashable, Sendable, CustomStringConvertible {
    /// One blocked thread.
    public struct BlockedThread: Hashable, Sendable {
        /// The thread's label: its queue's label (`"main"`, `"db"`, `"workers#2"`).
        public var thread: String
        /// What it waits for, e.g. `lock "A" held by "io"` or `sync on queue "main"`.
        package var waitsFor: String

        public init(thread: String, waitsFor: String) {
            self.thread = thread
            self.waitsFor = waitsFor
        }
    }

    /// The blocked threads, in creation order.
    public var threads: [BlockedThread]
    /// The virtual time of the deadlock.
    public var time: VirtualTime

    public init(threads: [BlockedThread], time: VirtualTime) {
        self.threads = threads
        self.time = time
    }

    /// One line per thread: `thread "main" waits for sync on queue "main" (itself)`.
    public var description: String {
        threads.map { "thread \"\($0.thread)\" waits for \($0.waitsFor)" }.joined(separator: "; ")
    }
}
