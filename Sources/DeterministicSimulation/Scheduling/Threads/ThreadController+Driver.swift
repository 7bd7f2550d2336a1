extension ThreadController {
    /// Runs until nothing can run by `limit`, `maxSteps` jobs were started or threads resumed,
    /// or a deadlock; returns the stop and the steps taken. Called by the driver (never from a
    /// job); returns without any handoff when nothing is due.
    func run(until limit: Int64, maxSteps: Int, movesClock: Bool) -> (stop: SchedulerStop, steps: Int) {
        precondition(state.current == nil, "Scheduler.run or step called from inside a job: steps do not nest")
        if state.deadlock != nil { return (.idle, 0) }
        lendPool()
        state.limit = limit
        state.stepsLeft = maxSteps
        state.stepsTaken = 0
        state.movesClockToLimit = movesClock
        let decision = decide(first: nil)
        if case .stop(let stop) = decision { return (stop, state.stepsTaken) }
        pool.beginPinnedRun()
        defer { pool.endPinnedRun() }
        switch decision {
        case .stop: preconditionFailure("handled above")
        case .start:
            let worker = pool.takeIdle()
            worker.assignment = .loop(Unretained(self), decision)
            state.handoffCount += 1
            driverWorker.handOff(to: worker)
        case .resume(let thread):
            markRunning(thread, in: scheduler)
            state.threads[thread].worker!.call { driverWorker.handOff(to: $0) }
        }
        return (state.result, state.stepsTaken)
    }

    /// Resumes every suspended thread in turn with ``isUnwinding`` set, so its job runs to its
    /// end with every scheduling point and blocking call returning at once, then gives the pool
    /// back. Called by the driver; afterwards no pool thread carries this run.
    func unwind() {
        precondition(state.current == nil, "discardPendingJobs called from inside a job")
        state.isUnwinding = true
        // Unwound jobs run on this thread's fibers (or on pool threads, marked by their loops).
        let mark = RunThreadMarker.enter(scheduler)
        defer { RunThreadMarker.leave(restoring: mark) }
        if state.suspendedCount > 0 { pool.beginPinnedRun() }
        defer { pool.endPinnedRun() }
        while let thread = state.threads.firstIndex(where: { $0.isSuspended }) {
            markRunning(thread, in: scheduler)
            state.threads[thread].worker!.call { driverWorker.handOff(to: $0) }
        }
        state.isUnwinding = false
        if pool.lentTo == ObjectIdentifier(self) { pool.lentTo = nil }
    }
}
