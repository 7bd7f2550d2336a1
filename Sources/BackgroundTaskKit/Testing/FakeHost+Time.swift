extension FakeHost {
    /// The virtual time since the host was created.
    public var now: Duration { state.withCriticalSection { $0.now } }

    /// Work waiting in the host's queues (due now or later).
    public var pendingWorkCount: Int { state.withCriticalSection { $0.jobs.count } }

    /// Runs queued work that is due, including work it enqueues, until none is due. Time does
    /// not move.
    ///
    /// - Returns: how many items ran.
    @discardableResult
    public func runUntilIdle() -> Int {
        var ran = 0
        while let job = takeDueJob(atOrBefore: nil) {
            job.work()
            ran += 1
        }
        return ran
    }

    /// Moves time forward by `duration`, running each item when its due time comes.
    ///
    /// - Returns: how many items ran.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        let target = state.withCriticalSection { $0.now + duration }
        var ran = runUntilIdle()
        while let job = takeDueJob(atOrBefore: target) {
            job.work()
            ran += 1 + runUntilIdle()
        }
        state.withCriticalSection { $0.now = max($0.now, target) }
        return ran
    }

    func enqueue(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        state.withCriticalSection { state in
            let due = state.now + max(delay, .zero)
            state.jobs.append(Job(due: due, sequence: state.nextJobSequence, work: work))
            state.nextJobSequence += 1
        }
    }

    /// The earliest job (by due time, then enqueue order) due by now, or by `limit` (moving
    /// time to it).
    private func takeDueJob(atOrBefore limit: Duration?) -> Job? {
        state.withCriticalSection { state in
            guard let index = state.jobs.indices.min(by: {
                (state.jobs[$0].due, state.jobs[$0].sequence) < (state.jobs[$1].due, state.jobs[$1].sequence)
            }) else { return nil }
            let job = state.jobs[index]
            guard job.due <= (limit ?? state.now) else { return nil }
            state.now = max(state.now, job.due)
            return state.jobs.remove(at: index)
        }
    }
}

/// A queue of a ``FakeHost``: work waits in the host until the test runs it.
///
/// ```swift
/// app.mainQueue.async { refreshUI() }
/// app.runUntilIdle()   // refreshUI() runs now, on the calling thread
/// let count = app.mainQueue.sync { badgeCount }   // runs at once, on the calling thread
/// ```
///
/// Contract: `async` and `asyncAfter` queue work in the host. `sync` runs `work` at once on the
/// calling thread (the fake's queues are never busy: their work waits for the test), ahead of
/// work already queued; a `sync` from a job of the same serial queue (every queue but the
/// background queue) would deadlock on a device, and is recorded in ``FakeHost/misuses``.
public final class FakeWorkQueue: WorkQueue {
    public let label: String
    private weak let host: FakeHost?
    private let isSerial: Bool

    init(label: String, host: FakeHost, isSerial: Bool = true) {
        self.label = label
        self.host = host
        self.isSerial = isSerial
    }

    /// The queue whose job runs on this thread, if any.
    @TaskLocal private static var running: ObjectIdentifier?

    public func async(_ work: @escaping @Sendable () -> Void) { asyncAfter(.zero, work) }

    public func asyncAfter(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let id = ObjectIdentifier(self)
        host?.enqueue(after: delay) { Self.$running.withValue(id) { work() } }
    }

    public func sync<Result, Failure: Error>(_ work: () throws(Failure) -> Result) throws(Failure) -> Result {
        if isSerial, Self.running == ObjectIdentifier(self) {
            host?.recordMisuse("dispatch_sync called on queue already owned by current thread: \(label)")
        }
        return try work()
    }
}
