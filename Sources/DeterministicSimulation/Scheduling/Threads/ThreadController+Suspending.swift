extension ThreadController {
    /// Suspends the current thread, whose state the caller has set (runnable, sleeping or
    /// blocked), lets the scheduler decide what runs next, and returns when the thread is
    /// resumed. Resuming the thread itself at once costs no handoff.
    func suspendCurrent(in scheduler: Scheduler) {
        guard let me = state.current else { preconditionFailure("suspendCurrent outside a job") }
        // The carrying worker unretained (the pool keeps it): held strongly here it cost a retain
        // and release per suspension, and one more per handoff.
        let worker: Unretained<PoolWorker>
        if let bound = state.threads[me].worker {
            worker = bound
        } else {
            // The job's first suspension: it started on the loop's worker and nothing else has
            // run since, so that worker carries it and the core's running job is its own.
            guard let loopWorker = state.loopWorker else { preconditionFailure("a job ran outside the loop") }
            worker = loopWorker
            state.threads[me].worker = loopWorker
            state.threads[me].taken = scheduler.core.taken
        }
        let onDriver = worker.call { $0 === driverWorker }
        if onDriver { pool.beginPinnedRun() }  // the last run's first handoff may follow
        state.current = nil
        plainLocks.setCurrent(nil)
        scheduler.core.runningQueue = -1
        state.insertSuspended(me)
        scheduler.core.occupyThread(ofQueue: state.threads[me].queue)
        let decision = decide(first: me, in: scheduler)
        switch decision {
        case .resume(let next) where next == me:
            markRunning(me, in: scheduler)
            return
        case .resume(let next):
            markRunning(next, in: scheduler)
            state.handoffCount += 1
            PoolWorker.handOff(from: worker, to: state.threads[next].worker!)
        case .start:
            let loop = takeLoopWorker()
            loop.assignment = .loop(Unretained(self), decision)
            state.handoffCount += 1
            worker.call { $0.handOff(to: loop) }
        case .stop(let stop) where onDriver:
            // The last run call stops while the driver's own job suspends: that job is
            // unwound right here, on the driver, after ``atStop``.
            state.result = stop
            finishLastRun(stop)
            state.isUnwinding = true
            markRunning(me, in: scheduler)
            return
        case .stop(let stop):
            handStop(stop)
            state.handoffCount += 1
            worker.call { $0.handOff(to: driverWorker) }
        }
        // Resumed: whoever resumed this thread called markRunning(me) first.
    }

    /// The OS thread to continue the loop on: the last run call's driver when it is idle at loop
    /// level, otherwise a pool thread.
    private func takeLoopWorker() -> PoolWorker {
        guard state.driverIsIdle else { return poolCall.call { $0.takeIdle() } }
        state.driverIsIdle = false
        return driverWorker
    }

    /// Makes the suspended thread with id `thread` the current one (before its OS thread is
    /// woken).
    func markRunning(_ thread: Int, in scheduler: Scheduler) {
        state.threads[thread].markRunning()
        state.current = thread
        plainLocks.setCurrent(thread)
        let queue = state.threads[thread].queue
        scheduler.core.runningQueue = queue
        state.removeSuspended(thread)
        scheduler.core.releaseThread(ofQueue: queue)
    }

    /// Makes the blocked or sleeping thread with id `thread` runnable.
    func wake(_ thread: Int) {
        state.threads[thread].makeRunnable()
        state.wakeCount += 1
    }
}

extension ThreadController.State {
    /// Adds the id of a thread going off the CPU to ``suspended``, keeping it ascending (appended,
    /// then moved down: the array's generic insert was a visible part of a racy run's profile).
    mutating func insertSuspended(_ thread: Int) {
        suspended.append(thread)
        var index = suspended.count - 1
        while index > 0, suspended[index - 1] > thread {
            suspended.swapAt(index - 1, index)
            index -= 1
        }
    }

    /// Removes the id of a thread coming back on the CPU from ``suspended`` (moved to the end,
    /// then removed).
    mutating func removeSuspended(_ thread: Int) {
        guard var index = suspended.firstIndex(of: thread) else {
            preconditionFailure("thread \(threads[thread].label) resumed but not suspended")
        }
        while index + 1 < suspended.count {
            suspended.swapAt(index, index + 1)
            index += 1
        }
        suspended.removeLast()
    }
}
