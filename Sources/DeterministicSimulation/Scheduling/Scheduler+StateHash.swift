extension Scheduler {
    /// Whether the scheduler's pending work can be hashed as a state: no simulated thread holds
    /// a job suspended mid-stack (a stack cannot be hashed, so two such states are never equal).
    ///
    /// ```swift
    /// if scheduler.isHashableState { scheduler.hashPendingWork(into: &hasher) }
    /// ```
    public var isHashableState: Bool {
        (threads?.suspendedCount ?? 0) == 0
    }

    /// Feeds the pending work, timing relative to now, into `hasher`: for each queue in creation
    /// order its label, whether it is frozen and its pending jobs in due order (cancelled ones left out), each as its due
    /// time minus now, its repeat interval and whether it is a timer. For a bounded exhaustive
    /// search's state hash (``ExhaustiveSearch``).
    ///
    /// ```swift
    /// var hasher = StableHasher()
    /// scheduler.hashPendingWork(into: &hasher)
    /// ```
    ///
    /// Contract: equal for two schedulers whose queues hold jobs due at the same offsets from
    /// their clocks, whatever their job numbers, creation times and heap layouts (so it is the
    /// same in every process: no `Hasher`, no addresses). What the jobs' closures would do is not
    /// seen: the caller hashes the state they act on.
    /// - Complexity: O(j log j) for j pending jobs.
    public func hashPendingWork(into hasher: inout StableHasher) {
        let now = clock.now.microseconds
        hasher.combine(core.queues.count)
        for queue in core.queues {
            hasher.combine(queue.label)
            hasher.combine(queue.isFrozen)
            // A cancelled job stays in its heap until it reaches the front: it is not pending.
            // Through `count` and the subscript only: whatever the heap's layout, position 0..<count are its jobs.
            let heap = queue.heap
            let jobs = (0..<heap.count).map { heap[$0] }.filter { !core.jobs.isFinished($0.number) }.sorted { $0.precedes($1) }
            hasher.combine(jobs.count)
            for job in jobs {
                hasher.combine(job.time - now)
                hasher.combine(core.jobs.interval(at: job.slot))
                hasher.combine(core.jobs.isTimer(at: job.slot))
            }
        }
    }
}
