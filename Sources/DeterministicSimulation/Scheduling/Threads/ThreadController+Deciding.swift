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
        if first == nil, let (thread, work) = takeInlineJob(in: scheduler) {
            state.pendingWork = work
            return .start(thread)
        }
        // Only at the point of suspension does the suspended thread come first (outcome 0: no
        // preemption); once time has moved, every runnable thread is in id order.
        var first = first
        while true {
            collectRunnable(first: first, in: scheduler)
            var now = clock.now.microseconds
            let earliest = gatherJobs(now: now, in: scheduler)
            var readyJobs = earliest <= now ? scheduler.core.candidateCount : 0
            if state.runnable.isEmpty, readyJobs == 0 {
                let wake = earliestWake(in: scheduler)
                let next = min(earliest, wake)
                if next == .max || next > state.limit { return .stop(endOfRun(in: scheduler)) }
                if state.stepsLeft <= 0 { return .stop(.stepLimit) }
                clock.advance(to: VirtualTime(microseconds: next))
                if wake <= next {
                    wakeSleepers(by: next, in: scheduler)
                    first = nil
                    continue
                }
                // No thread wakes: the jobs gathered for `earliest` are exactly the ready ones
                // now (gathering again would find the same, in the same order), as in the plain
                // scheduler's step.
                now = next
                readyJobs = scheduler.core.candidateCount
            }
            if state.stepsLeft <= 0 { return .stop(.stepLimit) }
            state.stepsLeft -= 1
            state.stepsTaken += 1
            let index = choose(jobCount: readyJobs, in: scheduler)
            if index < state.runnable.count {
                scheduler.core.noteProgress()  // a job's take counts itself; a resume is a step too
                return .resume(state.runnable[index])
            }
            let candidateIndex = index - state.runnable.count
            let thread = thread(forCandidate: candidateIndex, in: scheduler)
            let candidate = scheduler.core.candidates[candidateIndex]
            state.pendingWork = scheduler.core.take(candidate, now: now)
            return .start(thread)
        }
    }

    /// The fast path of a decision at loop level: while no thread is suspended on a queue that
    /// is not frozen (so none is runnable or wakes; see ``frozenFastPathApplies(in:)``) and the
    /// policy does not weigh every point, the next job is exactly the plain step's
    /// (the same gathering and the same draw), on its queue's free thread. Nil when that does
    /// not apply or no job is due by the limit: then ``decide(first:in:)`` goes the long way.
    @inline(__always)
    func takeInlineJob(in scheduler: Scheduler) -> (Int, () -> Void)? {
        guard state.deadlock == nil, state.stepsLeft > 0, !weighsEveryPoint,
            state.suspendedCount == 0 || frozenFastPathApplies(in: scheduler),
            let work = scheduler.core.takeNextJob(limit: state.limit, clock: clock, choices: choices)
        else { return nil }
        if state.suspendedCount > 0 { state.frozenFastPathCount += 1 }
        state.stepsLeft -= 1
        state.stepsTaken += 1
        return (thread(forCandidate: scheduler.core.chosenCandidate, in: scheduler), work)
    }

    /// Whether the fast path may be taken with threads suspended: every one of them is on a
    /// frozen queue (a suspended process's, or a killed one's, whose threads stay off the CPU for
    /// good). Such threads change nothing in a decision
    /// at loop level: none is runnable, ``earliestWake(in:)`` passes them over, so no sleeper wakes
    /// in it, and the long way gathers and draws exactly as the fast path does. A long run of
    /// notes-import keeps a killed process's `db` thread suspended, and every later decision went
    /// the long way.
    ///
    /// Also `false` while the core still marks the last job taken as running (it was suspended
    /// since, and no job has finished after it): the plain step's take checks that no step
    /// nests, and the long way, which does not, decides then as it always did.
    @inline(__always)
    private func frozenFastPathApplies(in scheduler: Scheduler) -> Bool {
        guard state.allowsFrozenFastPath, !scheduler.core.isRunningJob else { return false }
        var index = 0
        while index < state.suspended.count {
            if !scheduler.core.isFrozen(queue: state.threads[state.suspended[index]].queue) { return false }
            index += 1
        }
        return true
    }

    /// Fills ``runnable``: `first` if runnable, then the other runnable threads by id. Threads
    /// of frozen queues are not runnable (a suspended app's threads stay stopped).
    private func collectRunnable(first: Int?, in scheduler: Scheduler) {
        // Emptied from the end: `removeAll(keepingCapacity:)` went through the array's generic
        // `replaceSubrange` on every decision.
        while state.runnable.popLast() != nil {}
        guard state.suspendedCount > 0 else { return }
        let firstID = first ?? -1
        if let first, state.threads[first].isRunnable, !scheduler.core.isFrozen(queue: state.threads[first].queue) {
            state.runnable.append(first)
        }
        // By index, reading each thread in place: a `for in` loop retained the array, and copying
        // the core's queues retained them too.
        var index = 0
        while index < state.suspended.count {
            let thread = state.suspended[index]
            if thread != firstID, state.threads[thread].isRunnable,
                !scheduler.core.isFrozen(queue: state.threads[thread].queue)
            {
                state.runnable.append(thread)
            }
            index += 1
        }
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
    func earliestWake(in scheduler: Scheduler) -> Int64 {
        guard state.suspendedCount > 0 else { return .max }
        var earliest = Int64.max
        var index = 0
        while index < state.suspended.count {
            let thread = state.suspended[index]
            if case .sleeping(let until) = state.threads[thread].state, until < earliest,
                !scheduler.core.isFrozen(queue: state.threads[thread].queue)
            {
                earliest = until
            }
            index += 1
        }
        return earliest
    }

    private func wakeSleepers(by time: Int64, in scheduler: Scheduler) {
        guard state.suspendedCount > 0 else { return }
        var index = 0
        while index < state.suspended.count {
            if case .sleeping(let until) = state.threads[state.suspended[index]].state, until <= time {
                wake(state.suspended[index])
            }
            index += 1
        }
    }

    /// The index of the next runner among ``runnable`` then `jobCount` ready jobs, as the policy
    /// chooses; a policy that weighs every point is first shown each candidate's thread (made
    /// now if need be, drawing its priority), in index order.
    private func choose(jobCount: Int, in scheduler: Scheduler) -> Int {
        let count = state.runnable.count + jobCount
        if weighsEveryPoint {
            for index in 0..<count {
                let candidate = index < state.runnable.count
                    ? state.runnable[index]
                    : thread(forCandidate: index - state.runnable.count, in: scheduler)
                state.policy.weigh(candidate, at: index)
            }
        }
        return state.policy.chooseRunner(count: count, progress: progress(in: scheduler), choices: choices)
    }

    /// The id of the thread a gathered candidate job would start on: its queue's thread, or for
    /// the k-th candidate of a concurrent queue the k-th idle slot. Made on first use (the policy
    /// sees it appear: PCT draws its priority then).
    private func thread(forCandidate index: Int, in scheduler: Scheduler) -> Int {
        let queue = scheduler.core.candidates[index].queue
        var ordinal = 0
        var earlier = index - 1
        while earlier >= 0, scheduler.core.candidates[earlier].queue == queue {
            ordinal += 1
            earlier -= 1
        }
        // The common case: the queue's first thread exists and is free.
        if ordinal == 0, queue < state.queueThreads.count, let first = state.queueThreads[queue].first,
            case .idle = state.threads[first].state
        {
            return first
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
        if eligible == nil, earliestWake(in: scheduler) == .max, let report = globalDeadlock() {
            state.deadlock = report
            return .idle
        }
        if state.movesClockToLimit { clock.advance(to: VirtualTime(microseconds: state.limit)) }
        return eligible != nil || earliestWake(in: scheduler) != .max ? .reachedTime : .idle
    }
}
