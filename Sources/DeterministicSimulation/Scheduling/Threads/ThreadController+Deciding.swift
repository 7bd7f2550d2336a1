extension ThreadController {
    /// Decides what runs next, holding the baton: resume a runnable thread, start a ready job,
    /// or stop. Moves the clock when nothing can run now (to the earliest due job or sleeper
    /// wake-up, never past ``limit``).
    ///
    /// Candidates are, in order: `first` (the thread being suspended) if it is runnable, the
    /// other runnable threads by id, then the ready jobs as the core gathers them. Random walk
    /// draws `below: count` when there is more than one (0, the first, is "no preemption" at a
    /// scheduling point); PCT takes the highest priority. With no suspended thread this is the
    /// plain scheduler's step, draw for draw.
    func decide(first: SimulatedThread?) -> Decision {
        if deadlock != nil { return .stop(.idle) }
        let clock = scheduler.clock
        // Only at the point of suspension does the suspended thread come first (outcome 0: no
        // preemption); once time has moved, every runnable thread is in id order.
        var first = first
        while true {
            collectRunnable(first: first)
            let now = clock.now.microseconds
            let earliest = gatherJobs(now: now)
            let readyJobs = earliest <= now ? scheduler.core.candidateCount : 0
            if runnable.isEmpty, readyJobs == 0 {
                let next = min(earliest, earliestWake())
                if next == .max || next > limit { return .stop(endOfRun()) }
                if stepsLeft <= 0 { return .stop(.stepLimit) }
                clock.advance(to: VirtualTime(microseconds: next))
                wakeSleepers(by: next)
                first = nil
                continue
            }
            if stepsLeft <= 0 { return .stop(.stepLimit) }
            stepsLeft -= 1
            stepsTaken += 1
            let index = choose(jobCount: readyJobs)
            if index < runnable.count { return .resume(runnable[index]) }
            let candidateIndex = index - runnable.count
            let thread = thread(forCandidate: candidateIndex)
            let candidate = scheduler.core.candidates[candidateIndex]
            pendingWork = scheduler.core.take(candidate, now: now)
            return .start(thread)
        }
    }

    /// Fills ``runnable``: `first` if runnable, then the other runnable threads by id. Threads
    /// of frozen queues are not runnable (a suspended app's threads stay stopped).
    private func collectRunnable(first: SimulatedThread?) {
        runnable.removeAll(keepingCapacity: true)
        guard suspendedCount > 0 else { return }
        let queues = scheduler.core.queues
        if let first, first.isRunnable, !queues[first.queue].isFrozen { runnable.append(first) }
        for thread in threads where thread !== first && thread.isRunnable && !queues[thread.queue].isFrozen {
            runnable.append(thread)
        }
    }

    /// The core's candidates at `now` (or at the earliest due time, if later) and that earliest
    /// time (`.max` for none), dropping cancelled jobs at queue fronts as the plain step does.
    private func gatherJobs(now: Int64) -> Int64 {
        while true {
            if let earliest = scheduler.core.gatherCandidates(now: now) { return earliest }
            _ = scheduler.earliestEligibleTime()
        }
    }

    /// The earliest wake-up time of a sleeping thread on an unfrozen queue (`.max` for none).
    func earliestWake() -> Int64 {
        guard suspendedCount > 0 else { return .max }
        var earliest = Int64.max
        for thread in threads where !scheduler.core.queues[thread.queue].isFrozen {
            if case .sleeping(let until) = thread.state { earliest = min(earliest, until) }
        }
        return earliest
    }

    private func wakeSleepers(by time: Int64) {
        for thread in threads {
            if case .sleeping(let until) = thread.state, until <= time { wake(thread) }
        }
    }

    /// The index of the next runner among ``runnable`` then `jobCount` ready jobs.
    private func choose(jobCount: Int) -> Int {
        let count = runnable.count + jobCount
        guard isPCT else {
            return count == 1 ? 0 : Int(scheduler.choices.draw(below: UInt64(count)))
        }
        seenJobNumber = scheduler.core.jobs.nextNumber
        seenWakeCount = wakeCount
        var best = 0
        var bestThread: SimulatedThread?
        for index in 0..<count {
            let candidate = index < runnable.count ? runnable[index] : thread(forCandidate: index - runnable.count)
            if let leader = bestThread, !outranks(candidate, leader) { continue }
            best = index
            bestThread = candidate
        }
        return best
    }

    /// PCT order: higher priority first, then lower id.
    private func outranks(_ a: SimulatedThread, _ b: SimulatedThread) -> Bool {
        a.priority != b.priority ? a.priority > b.priority : a.id < b.id
    }

    /// The thread a gathered candidate job would start on: its queue's thread, or for the k-th
    /// candidate of a concurrent queue the k-th idle slot. Made on first use (PCT draws its
    /// priority then).
    func thread(forCandidate index: Int) -> SimulatedThread {
        let candidates = scheduler.core.candidates
        let queue = candidates[index].queue
        var ordinal = 0
        var earlier = index - 1
        while earlier >= 0, candidates[earlier].queue == queue {
            ordinal += 1
            earlier -= 1
        }
        return idleThread(ofQueue: queue, ordinal: ordinal)
    }

    /// The `ordinal`-th idle thread of a queue, making slot threads as needed.
    private func idleThread(ofQueue queue: Int, ordinal: Int) -> SimulatedThread {
        while queueThreads.count <= queue { queueThreads.append([]) }
        var remaining = ordinal
        var slot = 0
        while true {
            if slot == queueThreads[queue].count { makeThread(queue: queue) }
            let thread = queueThreads[queue][slot]
            if case .idle = thread.state {
                if remaining == 0 { return thread }
                remaining -= 1
            }
            slot += 1
        }
    }

    private func makeThread(queue: Int) {
        let slot = queueThreads[queue].count
        let label = scheduler.core.queues[queue].label
        let isConcurrent = scheduler.core.queues[queue].width > 1
        let thread = SimulatedThread(
            id: threads.count, queue: queue, slot: slot,
            label: isConcurrent ? "\(label)#\(slot + 1)" : label)
        if isPCT { thread.priority = Int64(scheduler.choices.draw(below: 1 << 16)) }
        threads.append(thread)
        queueThreads[queue].append(thread)
    }

    /// The stop when nothing can run by the limit: a deadlock if threads wait without a timeout
    /// and nothing at all can happen any more (the clock stays at the deadlock's time);
    /// otherwise the clock moves to the limit if asked, as in the plain scheduler.
    private func endOfRun() -> SchedulerStop {
        let eligible = scheduler.earliestEligibleTime()
        if eligible == nil, earliestWake() == .max, let report = globalDeadlock() {
            deadlock = report
            return .idle
        }
        if movesClockToLimit { scheduler.clock.advance(to: VirtualTime(microseconds: limit)) }
        return eligible != nil || earliestWake() != .max ? .reachedTime : .idle
    }
}
