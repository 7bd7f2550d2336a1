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
/// ```
public final class FakeWorkQueue: WorkQueue {
    public let label: String
    private weak let host: FakeHost?

    init(label: String, host: FakeHost) {
        self.label = label
        self.host = host
    }

    public func async(_ work: @escaping @Sendable () -> Void) { host?.enqueue(after: .zero, work) }

    public func asyncAfter(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        host?.enqueue(after: delay, work)
    }
}
