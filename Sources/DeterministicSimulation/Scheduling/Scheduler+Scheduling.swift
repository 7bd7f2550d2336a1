extension Scheduler {
    /// Schedules `work` on `queue`, due now.
    ///
    /// ```swift
    /// scheduler.async(on: scheduler.mainQueue) { updateBadge() }
    /// ```
    ///
    /// Contract: never runs `work` inside the call. On a serial queue, jobs scheduled with `async`
    /// run in the order scheduled.
    /// - Returns: the job's id, for ``cancel(_:)``.
    /// - Complexity: O(log n).
    @discardableResult
    public func async(on queue: QueueID, _ work: consuming @escaping () -> Void) -> JobID {
        enqueue(dueAt: clock.now.microseconds, on: queue, interval: 0, isTimer: false, consume work)
    }

    /// Schedules `work` on `queue`, due `delay` from now (a zero or negative delay means now).
    ///
    /// ```swift
    /// scheduler.asyncAfter(.milliseconds(250), on: uploads) { retryUpload() }
    /// ```
    ///
    /// - Returns: the job's id, for ``cancel(_:)``.
    /// - Complexity: O(log n).
    @discardableResult
    public func asyncAfter(
        _ delay: VirtualDuration, on queue: QueueID, _ work: consuming @escaping () -> Void
    ) -> JobID {
        let due = (clock.now + delay).microseconds
        return enqueue(dueAt: due, on: queue, interval: 0, isTimer: true, consume work)
    }

    /// Schedules `work` on `queue`, due at `time` (a past time means now).
    ///
    /// ```swift
    /// scheduler.async(at: .seconds(30), on: scheduler.mainQueue) { expireTasks() }
    /// ```
    ///
    /// - Returns: the job's id, for ``cancel(_:)``.
    /// - Complexity: O(log n).
    @discardableResult
    public func async(at time: VirtualTime, on queue: QueueID, _ work: consuming @escaping () -> Void)
        -> JobID
    {
        enqueue(dueAt: time.microseconds, on: queue, interval: 0, isTimer: true, consume work)
    }

    /// Schedules `work` on `queue` every `interval`, first one interval from now.
    ///
    /// ```swift
    /// let heartbeat = scheduler.repeating(every: .seconds(1), on: scheduler.mainQueue) {
    ///     beats += 1
    ///     if beats == 10 { scheduler.cancel(heartbeat) }   // fine from inside the body
    /// }
    /// ```
    ///
    /// Contract: after each fire the next is due at that fire's start time plus `interval`, so
    /// fires missed while the queue was frozen (or busy) coalesce into one. An interval below one
    /// microsecond is clamped to one. The timer counts as one pending job until cancelled, so
    /// ``runUntilIdle(maxSteps:)`` never returns `.idle` while it lives.
    /// - Returns: the timer's id: cancelling it stops all future fires.
    /// - Complexity: O(log n) now and per fire.
    @discardableResult
    public func repeating(
        every interval: VirtualDuration, on queue: QueueID, _ work: consuming @escaping () -> Void
    ) -> JobID {
        let step = max(interval.microseconds, 1)
        let due = Saturating.add(clock.now.microseconds, step)
        return enqueue(dueAt: due, on: queue, interval: step, isTimer: true, consume work)
    }

    /// Cancels a job or a repeating timer so it never runs (again).
    ///
    /// ```swift
    /// let timeout = scheduler.asyncAfter(.seconds(30), on: scheduler.mainQueue) { giveUp() }
    /// scheduler.cancel(timeout)
    /// ```
    ///
    /// Contract: does nothing for an unknown id, a job that already started, or a cancelled one;
    /// safe to call from inside the job itself (a repeating timer then does not fire again).
    /// The job's closure is released when it reaches the front of its queue.
    /// - Complexity: O(1).
    public func cancel(_ job: JobID) {
        core.cancel(job)
    }

    /// Drops every pending job without running it, releasing what the jobs captured, and returns
    /// how many were dropped. Queues stay usable. For tearing a simulated world down in a defined
    /// order: the captures are released here, while the objects they refer to are still alive;
    /// jobs scheduled by what those releases run (deinits) are dropped too, up to `rounds` times.
    /// With controlled concurrency, suspended simulated threads are first resumed and unwound:
    /// their jobs run on to their end with every scheduling point and blocking call returning at
    /// once, and the thread pool is given back.
    ///
    /// ```swift
    /// _ = scheduler.discardPendingJobs()   // the run is over: free its closures now
    /// ```
    @discardableResult
    public func discardPendingJobs(rounds: Int = 16) -> Int {
        // Suspended simulated threads first: their jobs run to their end, failing fast, so no
        // OS thread stays parked in this run.
        threads?.unwind()
        var dropped = 0
        for _ in 0..<max(1, rounds) {
            var taken = core.takeAllJobs()
            if taken.isEmpty { break }
            dropped += taken.count
            taken.removeAll()  // releases the closures outside the access to `core`
        }
        races?.call { $0.droppedAll() }
        return dropped
    }

    /// Schedules a job through the core, due no earlier than now.
    func enqueue(
        dueAt time: Int64, on queue: QueueID, interval: Int64, isTimer: Bool,
        _ work: consuming @escaping () -> Void
    ) -> JobID {
        let now = clock.now.microseconds
        let (job, slot) = core.enqueue(
            dueAt: time, now: now, on: queue, interval: interval, isTimer: isTimer, consume work)
        // Happens-before: the enqueuer's past comes before the job (every task job and
        // main-actor hop is enqueued here too).
        if let races {
            let index = raceContext
            races.call { $0.enqueued(slot: slot, from: index) }
        }
        return job
    }
}
