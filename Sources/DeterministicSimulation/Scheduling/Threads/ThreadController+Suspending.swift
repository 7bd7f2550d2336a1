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
        let queue = state.threads[me].queue
        state.insertSuspended(me, frozen: scheduler.core.isFrozen(queue: queue))
        scheduler.core.occupyThread(ofQueue: queue)
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

    /// Files the suspended threads of a queue that froze or thawed (``Scheduler/freeze(_:)``).
    func queueFreezingChanged(_ queue: Int, frozen: Bool) {
        state.refileSuspended(ofQueue: queue, frozen: frozen)
    }

    /// Makes the blocked or sleeping thread with id `thread` runnable.
    func wake(_ thread: Int) {
        state.threads[thread].makeRunnable()
        state.wakeCount += 1
    }
}

extension ThreadController.State {
    /// Adds the id of a thread going off the CPU to ``suspended``, or to ``frozenSuspended`` when
    /// its queue is frozen (its own job may have frozen it), keeping it ascending.
    mutating func insertSuspended(_ thread: Int, frozen: Bool) {
        if frozen {
            Self.insert(thread, into: &frozenSuspended)
            lowerFrozenWakeFloor(for: thread)
        } else {
            Self.insert(thread, into: &suspended)
        }
    }

    /// Lowers ``frozenWakeFloor`` to a sleeper's wake-up time as it joins ``frozenSuspended``.
    private mutating func lowerFrozenWakeFloor(for thread: Int) {
        if case .sleeping(let until) = threads[thread].state, until < frozenWakeFloor { frozenWakeFloor = until }
    }

    /// Removes the id of a thread coming back on the CPU from ``suspended`` or, when it is resumed
    /// to be unwound, ``frozenSuspended``.
    mutating func removeSuspended(_ thread: Int) {
        if Self.remove(thread, from: &suspended) || Self.remove(thread, from: &frozenSuspended) { return }
        preconditionFailure("thread \(threads[thread].label) resumed but not suspended")
    }

    /// Moves the suspended threads of a queue that froze to ``frozenSuspended``, or of one that
    /// thawed back to ``suspended``.
    mutating func refileSuspended(ofQueue queue: Int, frozen: Bool) {
        var index = 0
        while index < (frozen ? suspended.count : frozenSuspended.count) {
            let thread = frozen ? suspended[index] : frozenSuspended[index]
            guard threads[thread].queue == queue else {
                index += 1
                continue
            }
            if frozen {
                _ = Self.remove(thread, from: &suspended)
                Self.insert(thread, into: &frozenSuspended)
                lowerFrozenWakeFloor(for: thread)
            } else {
                _ = Self.remove(thread, from: &frozenSuspended)
                Self.insert(thread, into: &suspended)
            }
        }
    }

    /// Appends, then moves down: the array's generic insert was a visible part of a racy run's
    /// profile.
    private static func insert(_ thread: Int, into list: inout [Int]) {
        list.append(thread)
        var index = list.count - 1
        while index > 0, list[index - 1] > thread {
            list.swapAt(index - 1, index)
            index -= 1
        }
    }

    /// Moves it to the end, then removes it; `false` if it is not there.
    private static func remove(_ thread: Int, from list: inout [Int]) -> Bool {
        guard var index = list.firstIndex(of: thread) else { return false }
        while index + 1 < list.count {
            list.swapAt(index, index + 1)
            index += 1
        }
        list.removeLast()
        return true
    }
}
