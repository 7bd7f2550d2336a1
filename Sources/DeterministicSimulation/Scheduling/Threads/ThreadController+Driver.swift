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
        state.deadThreads = []  // unwound below with the others
        // Unwound jobs run on this thread's fibers (or on pool threads, marked by their loops).
        let mark = RunThreadMarker.enter(scheduler)
        defer { RunThreadMarker.leave(restoring: mark) }
        if state.suspendedCount > 0 { pool.beginPinnedRun() }
        defer { pool.endPinnedRun() }
        state.isFinalUnwind = true
        while let thread = state.threads.firstIndex(where: { $0.isSuspended }) {
            markRunning(thread, in: scheduler)
            state.threads[thread].worker!.call { driverWorker.handOff(to: $0) }
        }
        state.isFinalUnwind = false
        state.isUnwinding = false
        if pool.lentTo == ObjectIdentifier(self) { pool.lentTo = nil }
    }
}

extension ThreadController {
    /// Sets ``isUnwinding`` (``Scheduler/withInertCalls(_:)``); returns what it was.
    func setUnwinding(_ unwinding: Bool) -> Bool {
        let was = state.isUnwinding
        state.isUnwinding = unwinding
        return was
    }

    /// Notes a dead process's `queues` (indexes) and files their threads that hold something
    /// shared, to be unwound inertly at the next decision (``Scheduler/releaseDeadQueues(_:)``).
    func unwindLater(ofQueues queues: [Int]) {
        state.deadQueues.append(contentsOf: queues)
        fileDeadThreads()
    }

    /// Files, in id order, the threads of dead queues that are off the CPU, not blocked, hold
    /// something the next process may need (a ``SimulatedLock``, a real mutex, an actor's turn)
    /// and are not filed yet: those found at a kill, and those a dead thread's unwound code woke
    /// (a lock it gave back was handed to a dead waiter). Every other dead thread stays frozen,
    /// as its process's code would on a device.
    func fileDeadThreads() {
        for thread in state.frozenSuspended where state.deadQueues.contains(state.threads[thread].queue) {
            let dead = state.threads[thread]
            if case .blocked = dead.state { continue }
            guard dead.heldLocks > 0 || dead.runsActorTurn || plainLocks.holdsAny(thread) else { continue }
            if !state.deadThreads.contains(thread) { state.deadThreads.append(thread) }
        }
    }

    /// Resumes the first dead thread filed by ``unwindLater(ofQueues:)`` with the calls inert:
    /// it runs to the end of its job without suspending (``finishInertRun(in:)`` then).
    func resumeDeadThread(in scheduler: Scheduler) -> Decision {
        let next = state.deadThreads.removeFirst()
        state.inertThread = next
        state.inertMark = scheduler.enterInertCalls()
        return .resume(next)
    }

    /// Whether a dead thread resumed to give back what it held (``resumeDeadThread(in:)``) has
    /// given it all back by the time it waits: then its inert run ends here (``finishInertRun(in:)``),
    /// and the wait is made as any wait: the thread blocks, frozen with its dead process, until
    /// the run's end unwinds it. Its code only ran to free what the next process may need; code
    /// that waits in a loop for work of its dead process (Foundation's
    /// `waitUntilAllOperationsAreFinished()`, a loop of condition waits, once its `addOperation`
    /// gave the queue's lock back) would otherwise spin there for ever, each wait returning at
    /// once.
    func stopsInertRun(of thread: Int, in scheduler: Scheduler) -> Bool {
        guard state.inertThread == thread, state.threads[thread].heldLocks == 0, !state.threads[thread].runsActorTurn,
              !plainLocks.holdsAny(thread) else { return false }
        finishInertRun(in: scheduler)
        return !state.isUnwinding
    }

    /// At the end of a dead thread's job, before the job's end is booked: runs the actor turns
    /// its code left on dead queues, then puts back what its inert run changed.
    func finishInertRun(in scheduler: Scheduler) {
        scheduler.releaseActorsOfDeadQueues()
        let mark = state.inertMark
        state.inertThread = -1
        state.inertMark = nil
        if let mark { scheduler.leaveInertCalls(mark) }
        fileDeadThreads()
    }
}
