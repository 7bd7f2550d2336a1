extension ThreadController {
    /// The run's last `run` call, with the driver running the loop itself: a run in which no job
    /// is ever suspended makes no handoff at all, and each suspension costs exactly one.
    ///
    /// ```swift
    /// // Scheduler.runLast(until:maxSteps:atStop:) calls this with threads enabled
    /// let stop = controller.runLast(until: limit, maxSteps: max) { stop in judge(stop) }
    /// ```
    ///
    /// Why it must be the last call: a job started inline on the driver and suspended keeps the
    /// driver's stack, so `run` can return only after that job ended. When the run stops while
    /// the driver carries such a job, whoever holds the baton calls `atStop` first (the moment
    /// an ordinary `run` would have returned), then the job is resumed and unwound exactly as
    /// ``unwind()`` would do it at teardown, and the driver returns. Any other suspended thread is
    /// unwound at teardown, as after `run`.
    ///
    /// Contract: called by the driver, outside any job; `atStop` is called exactly once, holding
    /// the baton, before this returns; afterwards only ``unwind()`` may follow.
    func runLast(until limit: Int64, maxSteps: Int, atStop: @escaping (SchedulerStop) -> Void) -> SchedulerStop {
        precondition(state.current == nil, "Scheduler.runLast called from inside a job: steps do not nest")
        precondition(state.atStop == nil && !state.hasStopped, "Scheduler.runLast called twice")
        if state.deadlock != nil {
            atStop(.idle)
            return .idle
        }
        lendPool()
        // Pinned at the first suspension (always on the driver: until then every job ran
        // inline here), so a run that suspends nothing makes no system call for it.
        defer { pool.endPinnedRun() }
        state.limit = limit
        state.stepsLeft = maxSteps
        state.stepsTaken = 0
        state.movesClockToLimit = true
        state.atStop = atStop
        state.loopWorker = Unretained(driverWorker)
        let scheduler = self.scheduler  // one strong reference for the whole call
        // And one for the driver: reading the property for each job retained and released it.
        let driver = driverWorker
        var decision = nextDecision(in: scheduler, driver: driver)
        while !state.hasStopped {
            switch decision {
            case .start(let thread):
                runJob(on: thread, worker: driver, in: scheduler)
                if state.hasStopped { break }
                decision = nextDecision(in: scheduler, driver: driver)
            case .resume(let thread):
                markRunning(thread, in: scheduler)
                state.driverIsIdle = true
                state.handoffCount += 1
                state.threads[thread].worker!.call { driver.handOff(to: $0) }
                // Woken at loop level: handed the loop, or the run stopped.
                if state.hasStopped { break }
                guard case .loop(_, let next) = driver.assignment.take() else {
                    preconditionFailure("the last run's driver woken with nothing to do")
                }
                state.loopWorker = Unretained(driver)
                decision = next
            case .stop(let stop):
                state.result = stop
                finishLastRun(stop)
            }
        }
        // A job of the driver's unwound after the stop has ended: later unwinding is teardown's.
        state.isUnwinding = false
        state.atStop = nil
        return state.result
    }

    /// The driver's next decision at loop level, running the jobs of the fast path
    /// (``takeInlineJob(in:)``) inline first, with no ``Decision`` made for them.
    private func nextDecision(in scheduler: Scheduler, driver: PoolWorker) -> Decision {
        while let (thread, work) = takeInlineJob(in: scheduler) {
            runJob(work, on: thread, worker: driver, in: scheduler)
            if state.hasStopped { return .stop(state.result) }
        }
        return decide(first: nil, in: scheduler)
    }

    /// Marks the last run call as stopped and calls its `atStop`, once.
    func finishLastRun(_ stop: SchedulerStop) {
        guard let atStop = state.atStop, !state.hasStopped else { return }
        state.hasStopped = true
        atStop(stop)
    }
}
