extension ThreadController {
    /// The slow path of ``Scheduler/schedulingPoint()``, taken when the countdown of points
    /// until the next preemption reaches zero (random walk), or at every point (PCT).
    /// The running thread is read where a preemption needs it, not here: holding it in a local
    /// retained and released it at every PCT point.
    func schedulingPointSlowPath(in scheduler: Scheduler) {
        guard state.current != nil, !state.isUnwinding else {
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
            pctPoint(in: scheduler)
        } else {
            randomWalkPoint(in: scheduler)
        }
    }

    /// The running thread's id (only called inside a job).
    private var running: Int {
        guard let me = state.current else { preconditionFailure("a preemption outside a job") }
        return me
    }

    /// Random walk: the first point draws the first gap; a point whose countdown ran out draws
    /// the next gap, a delay and the next runner.
    private func randomWalkPoint(in scheduler: Scheduler) {
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
        preempt(running, in: scheduler)
    }

    /// PCT: counts the point, lowers the running thread's priority at a change point, and lets
    /// the highest-priority thread run when something may have changed (a change point, a new
    /// job, a woken thread).
    private func pctPoint(in scheduler: Scheduler) {
        if !state.pctStarted { startPCT() }
        state.pctStep += 1
        var lowered = false
        while state.nextChangePoint < state.changePoints.count, state.changePoints[state.nextChangePoint] <= state.pctStep {
            if state.changePoints[state.nextChangePoint] == state.pctStep { lowered = true }
            state.nextChangePoint += 1
        }
        if lowered {
            let me = running
            state.lowestPriority -= 1
            state.threads[me].priority = state.lowestPriority
            preempt(me, in: scheduler)
        } else if scheduler.core.jobs.nextNumber != state.seenJobNumber || state.wakeCount != state.seenWakeCount {
            state.preemptionCount += 1
            if knowsPCTDecision(in: scheduler) { return }
            state.threads[running].state = .runnable
            suspendCurrent(in: scheduler)
        }
    }

    /// PCT's decision at a point after new jobs, made without suspending when it is known: when no
    /// thread woke and no new job can start now (``SchedulerCore/candidateEpoch`` has not moved:
    /// each is due later, or queued behind another on a serial queue, or on a busy or frozen
    /// queue), the threads and ready jobs a decision would weigh are those of the last decision,
    /// less the job this thread took then. This thread had the highest priority then, so it has
    /// now, and the long way would resume it. Does the long way's bookkeeping (the step counted,
    /// what it has seen) and returns `true`; `false`, changing nothing, when the long way could
    /// differ or stop (a wake, a candidate change, the step budget spent, a deadlock).
    ///
    /// A main thread that queues a batch of jobs onto a busy serial queue (notes-import queues
    /// about 80 statements per import) made a full decision, and two thread switches' worth of
    /// bookkeeping, for each one.
    @inline(__always)
    private func knowsPCTDecision(in scheduler: Scheduler) -> Bool {
        guard state.allowsKnownPCTDecision, state.wakeCount == state.seenWakeCount,
            scheduler.core.candidateEpoch == state.seenCandidateEpoch, state.stepsLeft > 0, state.deadlock == nil
        else { return false }
        state.stepsLeft -= 1
        state.stepsTaken += 1
        state.seenJobNumber = scheduler.core.jobs.nextNumber
        state.knownPCTDecisionCount += 1
        return true
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
    private func preempt(_ me: Int, in scheduler: Scheduler) {
        state.preemptionCount += 1
        let queue = state.threads[me].queue
        let undelayed = queue < state.undelayedQueues.count && state.undelayedQueues[queue]
        let delay = undelayed ? 0 : draws.delay(choices)
        if delay > 0 {
            // Kept off the CPU: the long way is a sleep's, and so is its fast path.
            let wake = Saturating.add(clock.now.microseconds, delay)
            state.threads[me].state = .sleeping(until: wake)
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
            !scheduler.core.isFrozen(queue: queue), othersStayOff(until: wake, in: scheduler),
            let earliest = scheduler.core.earliestDueTime(occupying: queue), earliest > wake
        else { return false }
        clock.advance(to: VirtualTime(microseconds: wake))
        // The long way wakes every sleeper due by then, frozen ones too (they stay off the CPU
        // until their queue thaws), and this thread.
        var index = 0
        while index < state.suspended.count {
            if case .sleeping(let until) = state.threads[state.suspended[index]].state, until <= wake {
                self.wake(state.suspended[index])
            }
            index += 1
        }
        state.wakeCount += 1
        state.stepsLeft -= 1
        state.stepsTaken += 1
        state.sleepsInPlaceCount += 1
        if isPCT {
            state.seenJobNumber = scheduler.core.jobs.nextNumber
            state.seenWakeCount = state.wakeCount
            state.seenCandidateEpoch = scheduler.core.candidateEpoch
        }
        return true
    }

    /// Whether every suspended thread on a queue that is not frozen stays off the CPU until after
    /// `wake`: blocked (only a running thread can release it), or asleep until later.
    @inline(__always)
    private func othersStayOff(until wake: Int64, in scheduler: Scheduler) -> Bool {
        // By index, not `for in`: iterating the array retained it.
        var index = 0
        while index < state.suspended.count {
            let thread = state.suspended[index]
            let queue = state.threads[thread].queue
            switch state.threads[thread].state {
            case .blocked: break
            case .sleeping(let until) where until > wake: break
            default: if !scheduler.core.isFrozen(queue: queue) { return false }
            }
            index += 1
        }
        return true
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
