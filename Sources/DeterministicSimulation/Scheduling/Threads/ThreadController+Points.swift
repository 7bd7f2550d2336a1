extension ThreadController {
    /// The slow path of ``Scheduler/schedulingPoint()``, taken when the countdown of points
    /// until the next preemption reaches zero (random walk), or at every point (PCT).
    func schedulingPointSlowPath() {
        guard let me = state.current, !state.isUnwinding else {
            // Outside a job (the driver's own code) points do nothing; while unwinding they
            // return at once, and the countdown stays at 0 so later points come here too.
            if !state.isUnwinding { scheduler.pointsUntilPreemption = initialCountdown }
            return
        }
        if let defers = state.defersPreemption, defers() {
            // Postponed: the countdown stays at 0, so the next point asks again.
            scheduler.pointsUntilPreemption = 0
            return
        }
        if isPCT {
            pctPoint(me)
        } else {
            randomWalkPoint(me)
        }
    }

    /// Random walk: the first point draws the first gap; a point whose countdown ran out draws
    /// the next gap, a delay and the next runner.
    private func randomWalkPoint(_ me: SimulatedThread) {
        if !state.gapDrawn {
            state.gapDrawn = true
            let gap = draws.gap(choices)
            if gap != 1 {
                scheduler.pointsUntilPreemption = gap == 0 ? .max : Int(gap - 2)
                return
            }
        }
        let gap = draws.gap(choices)
        scheduler.pointsUntilPreemption = gap == 0 ? .max : Int(gap - 1)
        preempt(me)
    }

    /// PCT: counts the point, lowers the running thread's priority at a change point, and lets
    /// the highest-priority thread run when something may have changed (a change point, a new
    /// job, a woken thread).
    private func pctPoint(_ me: SimulatedThread) {
        if !state.pctStarted { startPCT() }
        state.pctStep += 1
        var lowered = false
        while state.nextChangePoint < state.changePoints.count, state.changePoints[state.nextChangePoint] <= state.pctStep {
            if state.changePoints[state.nextChangePoint] == state.pctStep { lowered = true }
            state.nextChangePoint += 1
        }
        if lowered {
            state.lowestPriority -= 1
            me.priority = state.lowestPriority
            preempt(me)
        } else if scheduler.core.jobs.nextNumber != state.seenJobNumber || state.wakeCount != state.seenWakeCount {
            state.preemptionCount += 1
            me.state = .runnable
            suspendCurrent()
        }
    }

    /// Draws PCT's `depth - 1` change points (0, from a replayed recording, means none).
    private func startPCT() {
        state.pctStarted = true
        guard case .pct(let depth, let stepBound) = configuration.strategy else { return }
        state.changePoints = (0..<max(0, depth - 1)).map { _ in
            draws.changePoint(choices, stepBound: stepBound)
        }.filter { $0 > 0 }.sorted()
    }

    /// A preemption of the running thread: it may be kept off the CPU for a drawn delay, then
    /// the scheduler decides what runs next (outcome 0: the thread itself).
    private func preempt(_ me: SimulatedThread) {
        state.preemptionCount += 1
        let undelayed = me.queue < state.undelayedQueues.count && state.undelayedQueues[me.queue]
        let delay = undelayed ? 0 : draws.delay(choices)
        if delay > 0 {
            me.state = .sleeping(until: Saturating.add(clock.now.microseconds, delay))
        } else {
            me.state = .runnable
        }
        suspendCurrent()
    }

    /// Blocks the current thread for `microseconds` of virtual time (time and other threads go
    /// on); a scheduling point when not positive. Returns at once when unwinding.
    func sleepCurrent(microseconds: Int64) {
        guard let me = state.current, !state.isUnwinding else { return }
        guard microseconds > 0 else {
            scheduler.schedulingPoint()
            return
        }
        me.state = .sleeping(until: Saturating.add(clock.now.microseconds, microseconds))
        if let hook = state.onBlock { hook(QueueID(rawValue: me.queue)) }
        suspendCurrent()
    }

    /// Blocks the current thread until someone calls ``wake(_:)``; first checks for a deadlock
    /// cycle through `wait`. Returns `false` without blocking when there is no current thread
    /// or the run is unwinding, and `false` after a deadlock (when unwinding resumes it).
    func blockCurrent(on wait: SimulatedThread.Wait) -> Bool {
        guard let me = state.current, !state.isUnwinding else { return false }
        me.state = .blocked(wait)
        if waitCycle(from: me) { state.deadlock = report() }
        if let hook = state.onBlock { hook(QueueID(rawValue: me.queue)) }
        suspendCurrent()
        return !state.isUnwinding
    }
}
