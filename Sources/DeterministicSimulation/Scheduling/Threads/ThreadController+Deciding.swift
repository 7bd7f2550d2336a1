extension ThreadController {
    /// Decides what runs next, holding the baton: resume a runnable thread, start a ready job,
    /// or stop. Moves the clock when nothing can run now (to the earliest due job or sleeper
    /// wake-up, never past ``limit``).
    ///
    /// Candidates are, in order: `first` (the thread being suspended) if it is runnable, the
    /// other runnable threads by id, then the ready jobs as the core gathers them. Random walk
    /// draws `below: count` when there is more than one (0, the first, is "no preemption" at a
    /// scheduling point); PCT takes the highest priority (the policy's choice). With no suspended thread this is the
    /// plain scheduler's step, draw for draw.
    func decide(first: Int?) -> Decision {
        decide(first: first, in: scheduler)
    }

    /// ``decide(first:)`` with the scheduler passed in: a loop takes one strong reference for all
    /// its decisions instead of one per decision (a job that never suspends is a few hundred
    /// instructions, so a retain and a release each time showed).
    func decide(first: Int?, in scheduler: Scheduler) -> Decision {
        if state.deadlock != nil { return .stop(.idle) }
        // A dead process's thread to unwind goes first, inertly (it ends its job without
        // suspending), unless a preempted thread is being suspended: that decision, where the
        // thread itself is the first candidate, is made as always. Otherwise the loop that ends
        // the unwound job decides next exactly as this call would have (every runnable thread
        // in id order).
        if !state.deadThreads.isEmpty, !state.isUnwinding, first.map({ !state.threads[$0].isRunnable }) ?? true {
            return resumeDeadThread(in: scheduler)
        }
        // `first`, when given, is suspended already: the fast path applies only if it is blocked.
        if let (thread, work) = takeInlineJob(in: scheduler) {
            state.pendingWork = work
            return .start(thread)
        }
        // Only at the point of suspension does the suspended thread come first (outcome 0: no
        // preemption); once time has moved, every runnable thread is in id order.
        var first = first
        while true {
            let runnableCount = countRunnable()
            var now = clock.now.microseconds
            let earliest = gatherJobs(now: now, in: scheduler)
            var readyJobs = earliest <= now ? scheduler.core.candidateCount : 0
            if runnableCount == 0, readyJobs == 0 {
                let wake = earliestWake()
                let next = min(earliest, wake)
                if next == .max || next > state.limit { return .stop(endOfRun(in: scheduler)) }
                if state.stepsLeft <= 0 { return .stop(.stepLimit) }
                clock.advance(to: VirtualTime(microseconds: next))
                if wake <= next {
                    // Time passed for the app if a job came due or a sleep of its own ended.
                    if wakeSleepers(by: next) || earliest <= next { scheduler.core.noteTimePassed(to: next) }
                    first = nil
                    continue
                }
                scheduler.core.noteTimePassed(to: next)
                // No thread wakes: the jobs gathered for `earliest` are exactly the ready ones
                // now (gathering again would find the same, in the same order), as in the plain
                // scheduler's step.
                now = next
                readyJobs = scheduler.core.candidateCount
            }
            if state.stepsLeft <= 0 { return .stop(.stepLimit) }
            state.stepsLeft -= 1
            state.stepsTaken += 1
            let index = choose(runnableCount: runnableCount, jobCount: readyJobs, first: first, in: scheduler)
            if index < runnableCount {
                scheduler.core.noteProgress()  // a job's take counts itself; a resume is a step too
                scheduler.core.noteStep(at: now)
                stopIfBusy(scheduler)
                return .resume(runnableThread(at: index, first: first, in: scheduler))
            }
            let candidateIndex = index - runnableCount
            let thread = thread(forCandidate: candidateIndex, in: scheduler)
            let candidate = scheduler.core.candidates[candidateIndex]
            state.pendingWork = scheduler.core.take(candidate, now: now)
            stopIfBusy(scheduler)
            return .start(thread)
        }
    }

    /// The fast path of a decision: while no suspended thread can run or wake by itself (each is
    /// blocked, waiting for a running thread to release it, or on a frozen queue: see
    /// ``suspendedThreadsStayOff()``) and the policy does not weigh every point, the next job
    /// is exactly the plain step's (the same gathering and the same draw), on its queue's free
    /// thread. Nil when that does not apply or no job is due by the limit: then
    /// ``decide(first:in:)`` goes the long way.
    @inline(__always)
    func takeInlineJob(in scheduler: Scheduler) -> (Int, () -> Void)? {
        guard state.deadlock == nil, state.stepsLeft > 0, !weighsEveryPoint, state.deadThreads.isEmpty,
            state.suspendedCount == 0 || suspendedThreadsStayOff(),
            let work = scheduler.core.takeNextJobBesideSuspended(limit: state.limit, clock: clock, choices: choices)
        else { return nil }
        if state.suspendedCount > 0 { state.fastPathBesideSuspendedCount += 1 }
        state.stepsLeft -= 1
        state.stepsTaken += 1
        stopIfBusy(scheduler)
        return (thread(forCandidate: scheduler.core.chosenCandidate, in: scheduler), work)
    }

    /// After a step: once the run is a busy loop (``Scheduler/busyLoop``), no step is left, so
    /// the next decision stops the run as at the step limit.
    @inline(__always)
    func stopIfBusy(_ scheduler: Scheduler) {
        if scheduler.core.busyLoop != nil { state.stepsLeft = 0 }
    }

    /// Whether the fast path may be taken with threads suspended: every one of them on a queue
    /// that is not frozen is blocked, waiting for a running thread to wake it (a lock's release,
    /// a `sync` block's end, a semaphore's signal); those of frozen queues (a suspended
    /// process's, or a killed one's) stay off the CPU until it thaws. Such threads change
    /// nothing in a decision: none is runnable, ``earliestWake()`` passes them over, so no
    /// sleeper wakes in it, and the long way gathers and draws exactly as the fast path does. The
    /// thread being suspended is among them: blocked, the long way would not put it first.
    ///
    /// A long run of notes-import keeps a killed process's `db` thread suspended, and a sender of
    /// chat-outbox blocks in a `sync` onto main while main's job starts: both decisions take it.
    @inline(__always)
    private func suspendedThreadsStayOff() -> Bool {
        guard state.allowsFastPathBesideSuspended else { return false }
        var index = 0
        while index < state.suspended.count {
            guard case .blocked = state.threads[state.suspended[index]].state else { return false }
            index += 1
        }
        return true
    }

    /// The number of runnable threads a decision may resume: the runnable ones among
    /// ``State/suspended`` (those of frozen queues are apart: a suspended app's threads stay
    /// stopped). Counted, not listed: filling a list on every decision (emptying it, appending,
    /// each a uniqueness check of its buffer) cost about 80 instructions a decision, and
    /// ``runnableThread(at:first:in:)`` finds the one chosen.
    private func countRunnable() -> Int {
        // By index, reading each thread in place: a `for in` loop retained the array.
        var count = 0
        var index = 0
        while index < state.suspended.count {
            if state.threads[state.suspended[index]].isRunnable { count += 1 }
            index += 1
        }
        return count
    }

    /// The runnable thread at `position` in a decision's order: `first` (the thread being
    /// suspended) if it is runnable on a queue that is not frozen, then the other runnable
    /// threads by id (the order of ``State/suspended``). `position` is below
    /// ``countRunnable()``.
    private func runnableThread(at position: Int, first: Int?, in scheduler: Scheduler) -> Int {
        var remaining = position
        let firstID: Int
        if let first, state.threads[first].isRunnable, !scheduler.core.isFrozen(queue: state.threads[first].queue) {
            if remaining == 0 { return first }
            remaining -= 1
            firstID = first
        } else {
            firstID = -1
        }
        var index = 0
        while index < state.suspended.count {
            let thread = state.suspended[index]
            if thread != firstID, state.threads[thread].isRunnable {
                if remaining == 0 { return thread }
                remaining -= 1
            }
            index += 1
        }
        preconditionFailure("runnable thread \(position) of a decision not found")
    }

    /// The core's candidates at `now` (or at the earliest due time, if later) and that earliest
    /// time (`.max` for none), dropping cancelled jobs at queue fronts as the plain step does.
    private func gatherJobs(now: Int64, in scheduler: Scheduler) -> Int64 {
        while true {
            if let earliest = scheduler.core.gatherCandidates(now: now) { return earliest }
            _ = scheduler.earliestEligibleTime()
        }
    }

    /// The earliest wake-up time of a sleeping thread on an unfrozen queue (`.max` for none).
    func earliestWake() -> Int64 {
        var earliest = Int64.max
        var index = 0
        while index < state.suspended.count {
            if case .sleeping(let until) = state.threads[state.suspended[index]].state, until < earliest {
                earliest = until
            }
            index += 1
        }
        return earliest
    }

    /// The index of the next runner among `runnableCount` runnable threads (in
    /// ``runnableThread(at:first:in:)``'s order) then `jobCount` ready jobs, as the policy
    /// chooses; a policy that weighs every point is first shown each candidate's thread (made
    /// now if need be, drawing its priority), in index order.
    private func choose(runnableCount: Int, jobCount: Int, first: Int?, in scheduler: Scheduler) -> Int {
        let count = runnableCount + jobCount
        if weighsEveryPoint {
            for index in 0..<count {
                let candidate = index < runnableCount
                    ? runnableThread(at: index, first: first, in: scheduler)
                    : thread(forCandidate: index - runnableCount, in: scheduler)
                state.policy.weigh(candidate, at: index)
            }
        }
        return state.policy.chooseRunner(count: count, progress: progress(in: scheduler), choices: choices)
    }

    /// The id of the thread a gathered candidate job would start on: its queue's thread, or for
    /// the k-th candidate of a concurrent queue the k-th idle slot. Made on first use (the policy
    /// sees it appear: PCT draws its priority then).
    @inline(__always)
    private func thread(forCandidate index: Int, in scheduler: Scheduler) -> Int {
        let queue = scheduler.core.candidates[index].queue
        // The common case, inline: the first candidate of its queue, whose first thread exists
        // and is free.
        if index == 0 || scheduler.core.candidates[index - 1].queue != queue,
            queue < state.queueThreads.count, let first = state.queueThreads[queue].first,
            case .idle = state.threads[first].state
        {
            return first
        }
        return laterThread(forCandidate: index, ofQueue: queue)
    }

    /// ``thread(forCandidate:in:)`` past its common case: the candidate's ordinal among its
    /// queue's candidates picks the idle slot.
    private func laterThread(forCandidate index: Int, ofQueue queue: Int) -> Int {
        var ordinal = 0
        var earlier = index - 1
        while earlier >= 0, scheduler.core.candidates[earlier].queue == queue {
            ordinal += 1
            earlier -= 1
        }
        return idleThread(ofQueue: queue, ordinal: ordinal)
    }

    /// The id of the `ordinal`-th idle thread of a queue, making slot threads as needed.
    private func idleThread(ofQueue queue: Int, ordinal: Int) -> Int {
        while state.queueThreads.count <= queue { state.queueThreads.append([]) }
        var remaining = ordinal
        var slot = 0
        while true {
            if slot == state.queueThreads[queue].count { makeThread(queue: queue) }
            let thread = state.queueThreads[queue][slot]
            if case .idle = state.threads[thread].state {
                if remaining == 0 { return thread }
                remaining -= 1
            }
            slot += 1
        }
    }

    private func makeThread(queue: Int) {
        let slot = state.queueThreads[queue].count
        let label = scheduler.core.queues[queue].label
        let isConcurrent = scheduler.core.queues[queue].width > 1
        let thread = SimulatedThread(
            id: state.threads.count, queue: queue, slot: slot,
            label: isConcurrent ? "\(label)#\(slot + 1)" : label)
        state.policy.threadAppeared(choices: choices)
        state.threads.append(thread)
        state.queueThreads[queue].append(thread.id)
    }

    /// The stop when nothing can run by the limit: a deadlock if threads wait without a timeout
    /// and nothing at all can happen any more (the clock stays at the deadlock's time);
    /// otherwise the clock moves to the limit if asked, as in the plain scheduler.
    private func endOfRun(in scheduler: Scheduler) -> SchedulerStop {
        let eligible = scheduler.earliestEligibleTime()
        if eligible == nil, earliestWake() == .max, let report = globalDeadlock() {
            state.deadlock = report
            return .idle
        }
        if state.movesClockToLimit { clock.advance(to: VirtualTime(microseconds: state.limit)) }
        return eligible != nil || earliestWake() != .max ? .reachedTime : .idle
    }
}
