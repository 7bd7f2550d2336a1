extension Scheduler {
    /// The earliest due time of a pending job on an unfrozen queue; `nil` if there is none.
    ///
    /// ```swift
    /// if let next = scheduler.nextEligibleTime, next > horizon { /* nothing more before it */ }
    /// ```
    ///
    /// - Complexity: O(q) for `q` queues, plus the lazy release of cancelled jobs it meets.
    package var nextEligibleTime: VirtualTime? {
        earliestEligibleTime().map { VirtualTime(microseconds: $0) }
    }

    /// The core's earliest eligible time, releasing the cancelled jobs it dropped afterwards.
    func earliestEligibleTime() -> Int64? {
        let earliest = core.earliestEligibleTime()
        releaseDropped()
        return earliest
    }

    /// Releases the closures of cancelled jobs the core dropped, outside any access to it.
    @inline(__always)
    func releaseDropped() {
        if core.dropped.isEmpty { return }
        // The core keeps an empty buffer with capacity (the spare) and the dropped closures are
        // released from the old one, which becomes the next spare: no allocation per drop.
        var closures: [DroppedWork] = []
        swap(&closures, &spareDropped)
        swap(&closures, &core.dropped)
        closures.removeAll(keepingCapacity: true)  // deinits run here, outside any access
        spareDropped = closures
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
    /// - Complexity: O(q + w² + log n); no allocation once the scratch buffers have grown.
    @discardableResult
    public func step(until limit: VirtualTime) -> Bool {
        lookUpProgressSlot()
        let mark = RunThreadMarker.enter(self)
        defer { RunThreadMarker.leave(restoring: mark) }
        return stepMarked(until: limit)
    }

    /// ``step(until:)`` on a thread already marked as running this scheduler (``RunThreadMarker``).
    func stepMarked(until limit: VirtualTime) -> Bool {
        if let threads {
            return threads.run(until: limit.microseconds, maxSteps: 1, movesClock: false).steps > 0
        }
        let limit = limit.microseconds
        var next = core.takeNextJob(limit: limit, clock: clock, choices: choices)
        while next == nil, !core.dropped.isEmpty {
            releaseDropped()
            next = core.takeNextJob(limit: limit, clock: clock, choices: choices)
        }
        guard let work = next else { return false }
        noteJobStartForRaces(in: 1)
        reportJobStart()
        work()
        noteJobEndForRaces(in: 1)
        core.finish()
        // A timer cancelled by its own fire left its closure in `dropped`.
        releaseDropped()
        return true
    }

    /// Runs jobs until none is due by `limit`, then moves the clock to `limit`.
    ///
    /// ```swift
    /// let stop = scheduler.run(until: .seconds(600), maxSteps: 1_000_000)
    /// ```
    ///
    /// Contract: returns `.stepLimit` (clock not moved to `limit`) if `maxSteps` steps ran and a
    /// job due by `limit` is still runnable. Otherwise advances the clock to `limit` if it is later
    /// and returns `.reachedTime` if a runnable job remains (due after `limit`), or `.idle` if
    /// nothing runnable remains (jobs on frozen queues may still be pending).
    /// - Parameters:
    ///   - limit: the horizon.
    ///   - maxSteps: the most jobs to run in this call (livelock guard).
    public func run(until limit: VirtualTime, maxSteps: Int = .max) -> SchedulerStop {
        lookUpProgressSlot()
        let mark = RunThreadMarker.enter(self)
        defer { RunThreadMarker.leave(restoring: mark) }
        if let threads {
            return threads.run(until: limit.microseconds, maxSteps: maxSteps, movesClock: true).stop
        }
        var steps = 0
        while true {
            if steps >= maxSteps {
                if let earliest = earliestEligibleTime(), earliest <= limit.microseconds {
                    return .stepLimit
                }
                break
            }
            if !stepMarked(until: limit) { break }
            steps += 1
            if core.busyLoop != nil { return .stepLimit }
        }
        clock.advance(to: limit)
        return earliestEligibleTime() == nil ? .idle : .reachedTime
    }

    /// ``run(until:maxSteps:)`` as the scheduler's last run, calling `atStop` with the stop at
    /// the moment the run stops, before anything is unwound.
    ///
    /// ```swift
    /// var verdict: Verdict?
    /// scheduler.runLast(until: .seconds(1800), maxSteps: 1_000_000) { stop in
    ///     verdict = judge(stop)   // the world exactly as the run left it
    /// }
    /// scheduler.discardPendingJobs()
    /// ```
    ///
    /// Why: whatever judges the run goes in `atStop`, called by whichever worker holds the baton
    /// at the stop, before the baton comes back to the caller. Like a plain `run`, the calling
    /// thread hands the loop to a pool worker and carries no job itself, so every job still
    /// suspended at the end can be unwound, or given up when it keeps waiting, at teardown
    /// (``discardPendingJobs(rounds:)``).
    ///
    /// Contract: the same stops and the same draws as ``run(until:maxSteps:)``; `atStop` is
    /// called exactly once, on whichever OS thread holds the run then, before this returns. After
    /// it, only ``discardPendingJobs(rounds:)`` may be called (a second `runLast` traps; without
    /// controlled concurrency it is simply `run` then `atStop`).
    @discardableResult
    public func runLast(
        until limit: VirtualTime, maxSteps: Int = .max, atStop: @escaping (SchedulerStop) -> Void
    ) -> SchedulerStop {
        guard let threads else {
            let stop = run(until: limit, maxSteps: maxSteps)
            atStop(stop)
            return stop
        }
        lookUpProgressSlot()
        let mark = RunThreadMarker.enter(self)
        defer { RunThreadMarker.leave(restoring: mark) }
        return threads.runLast(until: limit.microseconds, maxSteps: maxSteps, atStop: atStop)
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
        lookUpProgressSlot()
        let mark = RunThreadMarker.enter(self)
        defer { RunThreadMarker.leave(restoring: mark) }
        if let threads {
            return threads.run(until: Int64.max, maxSteps: maxSteps, movesClock: false).stop
        }
        var steps = 0
        while true {
            if steps >= maxSteps {
                return earliestEligibleTime() == nil ? .idle : .stepLimit
            }
            if !stepMarked(until: .distantFuture) { return .idle }
            steps += 1
            if core.busyLoop != nil { return .stepLimit }
        }
    }

    /// Finds the crash slot of the calling thread's run, whose progress counter the steps bump
    /// (``SchedulerCore/noteProgress()``): at the first `run` or `step` call that finds one (a
    /// run owns its scheduler and stays on its worker's slot), never per job.
    @inline(__always)
    func lookUpProgressSlot() {
        if core.progressSlot == nil { core.progressSlot = CrashSlot.progressTarget }
    }

    /// Calls ``onJobStart`` for the job the core just took (``SchedulerCore/taken``).
    @inline(__always)
    func reportJobStart() {
        guard let onJobStart else { return }
        let taken = core.taken
        onJobStart(
            JobInfo(
                job: JobID(rawValue: taken.job.number), queue: QueueID(rawValue: taken.queue),
                time: VirtualTime(microseconds: taken.startTime), isTimer: taken.isTimer,
                dueTime: VirtualTime(microseconds: taken.job.time)))
    }
}
