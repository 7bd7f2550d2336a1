extension ThreadController {
    /// The slow path of ``Scheduler/schedulingPoint()``, taken when the countdown of points
    /// until the next preemption reaches zero (random walk), or at every point (PCT): the policy
    /// says what happens (``PointOutcome``), and this carries it out.
    func schedulingPointSlowPath(in scheduler: Scheduler) {
        // The points counted down since the countdown was last set, and this one.
        state.countedPoints &+= state.countdownSetTo &- scheduler.pointsUntilPreemption &+ 1
        state.countdownSetTo = scheduler.pointsUntilPreemption
        guard state.current != nil, !state.isUnwinding else {
            // Outside a job (the driver's own code) points do nothing; while unwinding they
            // return at once, and the countdown stays at 0 so later points come here too.
            if !state.isUnwinding { setCountdown(initialCountdown, in: scheduler) }
            return
        }
        let me = running
        if state.threads[me].preemptionDeferrals > 0 || plainLocks.runsRuntimeHandler(me) {
            // Postponed (``Scheduler/withPreemptionDeferred(_:)``, or a Swift task's cancellation
            // handler: ``PlainLocks/runsRuntimeHandler(_:)``): the countdown stays at 0, so the
            // next point asks again.
            setCountdown(0, in: scheduler)
            return
        }
        let outcome = state.policy.point(
            running: me, progress: progress(in: scheduler),
            mayKnowDecision: state.stepsLeft > 0 && state.deadlock == nil, choices: choices)
        switch outcome {
        case .wait(let countdown):
            setCountdown(countdown, in: scheduler)
        case .preempt(let countdown):
            // Set first: the threads that run while this one is off the CPU count it down.
            setCountdown(countdown, in: scheduler)
            preempt(me, in: scheduler)
        case .yield:
            state.preemptionCount += 1
            state.threads[me].state = .runnable
            suspendCurrent(in: scheduler)
        case .keepRunning:
            // The decision a yield would make is known: the step is counted as the long way
            // counts it (``PCTPolicy`` says when this holds).
            state.preemptionCount += 1
            state.stepsLeft -= 1
            state.stepsTaken += 1
            scheduler.core.noteStep(at: clock.now.microseconds)
            stopIfBusy(scheduler)
        }
    }

    /// Sets the countdown of points to the next slow path, noting it for the point clock.
    @inline(__always)
    private func setCountdown(_ countdown: Int, in scheduler: Scheduler) {
        scheduler.pointsUntilPreemption = countdown
        state.countdownSetTo = countdown
    }

    /// The run's point clock (``ChoiceSource/pointClock``): PCT's own count of the points it was
    /// asked at (its change points count those), else the points counted so far, down the
    /// countdown or here (random walk's gaps count those). Points in a dead process's code, which
    /// put the countdown back, are not counted.
    func pointClock(in scheduler: Scheduler) -> Int {
        if let pct = state.policy.pct { return pct.step }
        return state.countedPoints &+ (state.countdownSetTo &- scheduler.pointsUntilPreemption)
    }

    /// The running thread's id (only called inside a job).
    private var running: Int {
        guard let me = state.current else { preconditionFailure("a preemption outside a job") }
        return me
    }

    /// A preemption of the running thread: it may be kept off the CPU for a drawn delay, then
    /// the scheduler decides what runs next (outcome 0: the thread itself).
    private func preempt(_ me: Int, in scheduler: Scheduler) {
        state.preemptionCount += 1
        let queue = state.threads[me].queue
        let undelayed = queue < state.undelayedQueues.count && state.undelayedQueues[queue]
        let delay = undelayed ? 0 : self.delay.draw(choices)
        if delay > 0 {
            // Kept off the CPU: the long way is a sleep's, and so is its fast path.
            let wake = Saturating.add(clock.now.microseconds, delay)
            state.threads[me].state = .sleeping(until: wake)
            state.threads[me].isDelayed = true
            if sleepsInPlace(until: wake, queue: queue, in: scheduler) {
                state.threads[me].state = .running
                state.delaysInPlaceCount += 1
                return
            }
        } else {
            state.threads[me].state = .runnable
        }
        suspendCurrent(in: scheduler)
    }

    /// Blocks the current thread for `microseconds` of virtual time (time and other threads go
    /// on); a scheduling point when not positive. Returns at once when unwinding.
    func sleepCurrent(microseconds: Int64, in scheduler: Scheduler) {
        guard let me = state.current, !state.isUnwinding else { return }
        guard microseconds > 0 else {
            scheduler.schedulingPoint()
            return
        }
        let wake = Saturating.add(clock.now.microseconds, microseconds)
        let queue = state.threads[me].queue
        state.threads[me].state = .sleeping(until: wake)
        state.threads[me].isDelayed = false
        callBlockHook(ofQueue: queue)
        if sleepsInPlace(until: wake, queue: queue, in: scheduler) {
            state.threads[me].state = .running
            return
        }
        suspendCurrent(in: scheduler)
    }

    /// The fast path of a sleep: when nothing else can run before the sleeper wakes (no other
    /// thread off the CPU becomes runnable by then, and no job that could start is due by then),
    /// the decision ``suspendCurrent(in:)`` would make is known without making it: move the clock
    /// to the wake-up time and resume this thread, with no draw. This does exactly what the long
    /// way does (the same steps counted, the same sleepers woken, PCT's bookkeeping of what it
    /// has seen) and skips its cost: the suspended list, the queue's thread and two gatherings of
    /// the core's candidates. Returns `false`, changing nothing, whenever the long way could
    /// differ: another thread runnable or waking by then on a queue that is not frozen, a frozen
    /// queue of its own, the run's limit or step budget, a cancelled job at a queue's front (the
    /// long way drops it), or a job due at or before the wake-up time (the long way may draw).
    ///
    /// notes-import spends most of its statements in such sleeps (a `db` job blocking for its
    /// write while the rest of the app is idle, often with threads of killed processes still
    /// suspended on frozen queues), and the long way was most of its scheduler's time.
    @inline(__always)
    private func sleepsInPlace(until wake: Int64, queue: Int, in scheduler: Scheduler) -> Bool {
        guard state.allowsSleepInPlace, state.deadlock == nil, state.stepsLeft > 0, wake <= state.limit,
            !scheduler.core.isFrozen(queue: queue), othersStayOff(until: wake),
            let earliest = scheduler.core.earliestDueTime(occupying: queue), earliest > wake
        else { return false }
        clock.advance(to: VirtualTime(microseconds: wake))
        // The long way wakes every sleeper due by then, frozen ones too, and this thread.
        // Time passed for the app if this thread's sleep is its own, or another's own sleep ended.
        let ownSleep = state.current.map { !state.threads[$0].isDelayed } ?? false
        if wakeSleepers(by: wake) || ownSleep { scheduler.core.noteTimePassed(to: wake) }
        scheduler.core.noteStep(at: wake)
        stopIfBusy(scheduler)
        state.wakeCount += 1
        state.stepsLeft -= 1
        state.stepsTaken += 1
        state.sleepsInPlaceCount += 1
        state.policy.observe(progress(in: scheduler))
        return true
    }

    /// Whether every suspended thread on a queue that is not frozen stays off the CPU until after
    /// `wake`: blocked (only a running thread can release it), or asleep until later. (Those of
    /// frozen queues stay off anyway.)
    @inline(__always)
    private func othersStayOff(until wake: Int64) -> Bool {
        // By index, not `for in`: iterating the array retained it.
        var index = 0
        while index < state.suspended.count {
            switch state.threads[state.suspended[index]].state {
            case .blocked: break
            case .sleeping(let until) where until > wake: break
            default: return false
            }
            index += 1
        }
        return true
    }

    /// Wakes every suspended thread asleep until `time` or earlier, those of frozen queues too
    /// (they stay off the CPU until their queue thaws), in id order within each list.
    @discardableResult
    func wakeSleepers(by time: Int64) -> Bool {
        var ownSleepEnded = false
        var index = 0
        while index < state.suspended.count {
            if case .sleeping(let until) = state.threads[state.suspended[index]].state, until <= time {
                if !state.threads[state.suspended[index]].isDelayed { ownSleepEnded = true }
                wake(state.suspended[index])
            }
            index += 1
        }
        guard state.frozenWakeFloor <= time else { return ownSleepEnded }
        var floor = Int64.max  // worked out again: the earliest wake-up among those left asleep
        index = 0
        while index < state.frozenSuspended.count {
            if case .sleeping(let until) = state.threads[state.frozenSuspended[index]].state {
                if until <= time { wake(state.frozenSuspended[index]) } else if until < floor { floor = until }
            }
            index += 1
        }
        state.frozenWakeFloor = floor
        return ownSleepEnded
    }

    /// Blocks the current thread until someone calls ``wake(_:)``; first checks for a deadlock
    /// cycle through `wait`. Returns `false` without blocking when there is no current thread
    /// or the run is unwinding, and `false` after a deadlock (when unwinding resumes it).
    func blockCurrent(on wait: SimulatedThread.Wait, in scheduler: Scheduler) -> Bool {
        guard let me = state.current, !state.isUnwinding else { return false }
        state.threads[me].block(on: wait)
        if waitCycle(from: me, in: scheduler) { state.deadlock = report() }
        callBlockHook(ofQueue: state.threads[me].queue)
        suspendCurrent(in: scheduler)
        return !state.isUnwinding
    }

    /// Calls the block hook of `queue`, if it has one (``Scheduler/onThreadBlocks(on:_:)``).
    @inline(__always)
    private func callBlockHook(ofQueue queue: Int) {
        guard queue < state.blockHooks.count, let hook = state.blockHooks[queue] else { return }
        hook()
    }
}
