extension Scheduler {
    /// The earliest due time of a pending job on an unfrozen queue; `nil` if there is none.
    ///
    /// ```swift
    /// if let next = scheduler.nextEligibleTime, next > horizon { /* nothing more before it */ }
    /// ```
    ///
    /// - Complexity: O(q) for `q` queues, plus the lazy release of cancelled jobs it meets.
    public var nextEligibleTime: VirtualTime? {
        let earliest = earliestEligibleMicroseconds()
        return earliest.map { VirtualTime(microseconds: $0) }
    }

    /// Runs exactly one job due no later than `limit`, choosing among candidates as described on
    /// ``Scheduler``.
    ///
    /// ```swift
    /// while scheduler.step(until: .seconds(10)) { checkInvariants() }
    /// ```
    ///
    /// Contract: if no job is ready, the clock first advances to the earliest due time (which is
    /// at most `limit`). Returns `false`, leaving the clock untouched, when no job on an unfrozen
    /// queue is due by `limit`.
    /// - Precondition: not called from inside a job (steps do not nest).
    /// - Complexity: O(q + w log n); no allocation once the scratch buffers have grown.
    @discardableResult
    public func step(until limit: VirtualTime) -> Bool {
        precondition(!isRunningJob, "Scheduler.step called from inside a job: steps do not nest")
        guard let earliest = earliestEligibleMicroseconds(), earliest <= limit.microseconds else {
            return false
        }
        if earliest > clock.now.microseconds {
            clock.advance(to: VirtualTime(microseconds: earliest))
        }
        gatherCandidates(now: clock.now.microseconds)
        let chosen: Candidate
        if candidates.count == 1 {
            chosen = candidates[0]
        } else {
            chosen = candidates[Int(choices.draw(below: UInt64(candidates.count)))]
        }
        let job = queues[chosen.queue].heap.remove(at: chosen.heapIndex)
        runJob(job, queue: chosen.queue)
        return true
    }

    /// Runs jobs until none is due by `limit`, then moves the clock to `limit`.
    ///
    /// ```swift
    /// let stop = scheduler.run(until: .seconds(600), maxSteps: 1_000_000)
    /// ```
    ///
    /// Contract: returns `.stepLimit` (clock not moved to `limit`) if `maxSteps` steps ran and a job
    /// due by `limit` is still runnable. Otherwise advances the clock to `limit` if it is later
    /// and returns `.reachedTime` if a runnable job remains (due after `limit`), or `.idle` if
    /// nothing runnable remains (jobs on frozen queues may still be pending).
    /// - Parameters:
    ///   - limit: the horizon.
    ///   - maxSteps: the most jobs to run in this call (livelock guard).
    public func run(until limit: VirtualTime, maxSteps: Int = .max) -> SchedulerStop {
        var steps = 0
        while true {
            if steps >= maxSteps {
                if let earliest = earliestEligibleMicroseconds(), earliest <= limit.microseconds {
                    return .stepLimit
                }
                break
            }
            if !step(until: limit) { break }
            steps += 1
        }
        clock.advance(to: limit)
        return earliestEligibleMicroseconds() == nil ? .idle : .reachedTime
    }

    /// Runs jobs, whatever their due time, until nothing runnable is left.
    ///
    /// ```swift
    /// scheduler.async(on: scheduler.mainQueue) { save() }
    /// #expect(scheduler.runUntilIdle() == .idle)
    /// #expect(scheduler.pendingJobCount == 0)
    /// ```
    ///
    /// Contract: the clock ends at the last job's time (it is not pushed further). Returns `.idle`
    /// when nothing runnable is left (jobs on frozen queues may remain), `.stepLimit` when
    /// `maxSteps` jobs ran and more are runnable. A live repeating timer keeps it running until
    /// the step limit.
    /// - Parameter maxSteps: the most jobs to run in this call.
    public func runUntilIdle(maxSteps: Int = .max) -> SchedulerStop {
        var steps = 0
        while true {
            if steps >= maxSteps {
                return earliestEligibleMicroseconds() == nil ? .idle : .stepLimit
            }
            if !step(until: .distantFuture) { return .idle }
            steps += 1
        }
    }

    /// The earliest due time on an unfrozen queue, releasing cancelled jobs found at the fronts.
    func earliestEligibleMicroseconds() -> Int64? {
        var earliest: Int64?
        for queueIndex in queues.indices where !queues[queueIndex].isFrozen {
            guard let first = firstLiveJob(inQueue: queueIndex) else { continue }
            if earliest.map({ first.time < $0 }) ?? true { earliest = first.time }
        }
        return earliest
    }

    /// The front job of a queue, after releasing cancelled jobs at the front.
    func firstLiveJob(inQueue queueIndex: Int) -> ScheduledJob? {
        while let first = queues[queueIndex].heap.first {
            if !jobs.isFinished(first.number) { return first }
            _ = queues[queueIndex].heap.removeFirst()
            jobs.release(first.slot)
        }
        return nil
    }

    /// Runs one job taken off its queue: marks a one-shot job finished, calls the hook and the
    /// work, and puts a repeating timer back unless it was cancelled meanwhile.
    func runJob(_ job: ScheduledJob, queue queueIndex: Int) {
        let work = jobs.work(at: job.slot)
        let interval = jobs.interval(at: job.slot)
        let isTimer = jobs.isTimer(at: job.slot)
        let startTime = clock.now
        if interval == 0 {
            jobs.markFinished(job.number)
            jobs.release(job.slot)
            pendingJobCount -= 1
        }
        stepsRun += 1
        if let onJobStart {
            onJobStart(
                JobInfo(
                    job: JobID(rawValue: job.number), queue: QueueID(rawValue: queueIndex),
                    time: startTime, isTimer: isTimer,
                    dueTime: VirtualTime(microseconds: job.time)))
        }
        isRunningJob = true
        work()
        isRunningJob = false
        guard interval != 0 else { return }
        if jobs.isFinished(job.number) {
            jobs.release(job.slot)
        } else {
            let next = Saturating.add(startTime.microseconds, interval)
            queues[queueIndex].heap.insert(ScheduledJob(time: next, number: job.number, slot: job.slot))
        }
    }
}
