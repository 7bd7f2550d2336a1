extension ThreadController {
    /// The run's last `run` call. The driver carries no job: it hands the loop to a pool worker
    /// and waits for the stop, so every job that is left suspended at the end is on a worker the
    /// teardown may give up (``noteUnwindingWait(in:)``); the driver's own stack must return.
    ///
    /// ```swift
    /// // Scheduler.runLast(until:maxSteps:atStop:) calls this with threads enabled
    /// let stop = controller.runLast(until: limit, maxSteps: max) { stop in judge(stop) }
    /// ```
    ///
    /// Why it must be the last call: whoever holds the baton when the run stops calls `atStop`
    /// (the moment an ordinary `run` would have returned) and hands the baton to the driver,
    /// which returns; suspended threads are unwound at teardown, as after `run`. (The driver once
    /// ran jobs inline to save the first handoff; a job suspended on its stack had to be unwound
    /// there, and a job that waits in a loop, `while !done { Thread.sleep(...) }`, never ends when
    /// unwound.)
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
        // Pinned at the handoff to the loop's worker (OS threads only).
        defer { pool.endPinnedRun() }
        state.limit = limit
        state.stepsLeft = maxSteps
        state.stepsTaken = 0
        state.movesClockToLimit = true
        state.atStop = atStop
        let scheduler = self.scheduler  // one strong reference for the whole call
        let driver = driverWorker
        let decision = decide(first: nil, in: scheduler)
        switch decision {
        case .start:
            // The loop goes on on a pool worker; the driver is handed the baton at the stop.
            let loop = poolCall.call { $0.takeIdle() }
            loop.assignment = .loop(Unretained(self), decision)
            pool.beginPinnedRun()
            state.handoffCount += 1
            driver.handOff(to: loop)
        case .resume(let thread):
            markRunning(thread, in: scheduler)
            pool.beginPinnedRun()
            state.handoffCount += 1
            state.threads[thread].worker!.call { driver.handOff(to: $0) }
        case .stop(let stop):
            state.result = stop
            finishLastRun(stop)
        }
        precondition(state.hasStopped, "the last run's driver woken before the stop")
        state.isUnwinding = false
        state.atStop = nil
        return state.result
    }

    /// Marks the last run call as stopped and calls its `atStop`, once.
    func finishLastRun(_ stop: SchedulerStop) {
        guard let atStop = state.atStop, !state.hasStopped else { return }
        state.hasStopped = true
        atStop(stop)
    }
}
