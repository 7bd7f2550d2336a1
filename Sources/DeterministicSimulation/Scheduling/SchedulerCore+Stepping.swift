extension SchedulerCore {
    /// Takes the job the next step runs (its closure; its other values go to ``taken``), or `nil` if no job on an unfrozen queue is due by
    /// `limit` (then the clock is untouched). Advances the clock to the earliest due time if no
    /// job is ready, gathers the candidates, draws among them when there is more than one, and
    /// removes the chosen job from its heap. A one-shot job is marked finished here. Also `nil`
    /// when cancelled jobs were dropped on the way (see ``dropped``): release them and call again.
    mutating func takeNextJob(limit: Int64, clock: VirtualClock, choices: ChoiceSource)
        -> (() -> Void)?
    {
        precondition(!isRunningJob, "Scheduler.step called from inside a job: steps do not nest")
        return takeNextJobBesideSuspended(limit: limit, clock: clock, choices: choices)
    }

    /// ``takeNextJob(limit:clock:choices:)`` without its check that no step nests: with
    /// controlled concurrency the job taken last may still be in progress, suspended on its
    /// thread (``ThreadController/takeInlineJob(in:)`` decides then as the plain step would).
    @inline(__always)
    mutating func takeNextJobBesideSuspended(limit: Int64, clock: VirtualClock, choices: ChoiceSource)
        -> (() -> Void)?
    {
        // Fast path: one read-only pass finds the earliest due time and the candidates together.
        // It gives up at the first cancelled job at a queue's front; the slow path then drops
        // every such job (their closures go to `dropped`) and returns `nil`, so the caller
        // releases them (their deinits run before the clock moves) and asks again.
        guard let earliest = gatherCandidates(now: clock.now.microseconds) else {
            _ = earliestEligibleTime()
            return nil
        }
        guard candidateCount != 0, earliest <= limit else { return nil }
        if earliest > clock.now.microseconds {
            clock.advance(to: VirtualTime(microseconds: earliest))
            noteTimePassed(to: earliest)
        }
        if candidateCount == 1 {
            chosenCandidate = 0
        } else {
            chosenCandidate = Int(choices.draw(below: UInt64(candidateCount)))
            choices.markScheduleDraw()
            // Exhaustive search: which ready job runs first is a scheduling choice (0 costs nothing).
            choices.exploration?.branch(position: choices.drawCount - 1,
                                        alternatives: (0..<UInt64(candidateCount)).map { $0 }, extraCost: 1)
        }
        return take(candidates[chosenCandidate], now: clock.now.microseconds)
    }

    /// Removes a gathered candidate from its heap and makes it the running job (its values go to
    /// ``taken``; a one-shot job is marked finished), returning its closure.
    @inline(__always)
    mutating func take(_ chosen: Candidate, now: Int64) -> () -> Void {
        let job = queues[chosen.queue].heap.remove(at: chosen.heapIndex)
        if queues[chosen.queue].heap.isEmpty { queued.remove(chosen.queue) }
        if tracksCandidateChanges, let front = queues[chosen.queue].heap.first, jobs.isFinished(front.number) {
            candidateEpoch &+= 1  // a cancelled job uncovered: the next gathering drops it
        }
        let interval = jobs.interval(at: job.slot)
        let isTimer = jobs.isTimer(at: job.slot)
        let work: () -> Void
        if interval == 0 {
            jobs.markFinished(job.number)
            work = jobs.takeWork(at: job.slot)
            pendingJobCount -= 1
        } else {
            work = jobs.work(at: job.slot)  // a repeating timer keeps its slot
        }
        stepsRun += 1
        noteProgress()
        noteStep(at: now)
        isRunningJob = true
        taken = TakenJob(
            job: job, queue: chosen.queue, interval: interval, isTimer: isTimer, startTime: now)
        return work
    }

    /// Ends a step: puts a repeating timer back (due at its start time plus its interval) unless
    /// it was cancelled meanwhile, in which case its slot is freed and its closure goes to
    /// ``dropped``, for the scheduler to release outside the access.
    mutating func finish() {
        isRunningJob = false
        if taken.interval != 0 {
            let job = taken.job
            if jobs.isFinished(job.number) {
                // Cancelled while it ran: its closure may hold the last reference to objects
                // whose deinits call back into the scheduler, so it goes to `dropped`.
                if let work = jobs.take(job.slot) { dropped.append(DroppedWork(work: work)) }
            } else {
                let next = Saturating.add(taken.startTime, taken.interval)
                queues[taken.queue].heap.insert(
                    ScheduledJob(time: next, number: job.number, slot: job.slot))
                queued.insert(taken.queue)
                candidateEpoch &+= 1
            }
        }
        #if DETERMINISTIC_SIMULATION_CHECKS
            checkInvariants()
        #endif
    }

    /// Fills the first ``candidateCount`` entries of ``candidates`` with the jobs the step may run, in queue creation order, then (due
    /// time, job id), and returns the earliest due time on an unfrozen queue (`Int64.max` if
    /// there is none, and then no candidate): a serial queue offers its front job, a concurrent queue of width `w` its
    /// first `w`, among those due by `max(now, earliest)` (the step's time once the clock has
    /// advanced to the earliest due time). Returns `nil`, leaving ``candidates`` unspecified, at
    /// the first unfrozen queue whose front job is cancelled (see ``firstLiveJob(inQueue:)``).
    /// One pass over the queues, modifying nothing but the scratch buffers.
    mutating func gatherCandidates(now: Int64) -> Int64? {
        candidateCount = 0
        var earliest = Int64.max
        // Candidates are the jobs due by `threshold`, which is `max(now, earliest so far)`: it
        // only falls when a queue's front is earlier than every front seen so far and still in
        // the future, and then every candidate gathered so far (due at the old threshold, after
        // `now`) is too late.
        var threshold = Int64.max
        // The open queues with jobs, in index order (see ``open`` and ``queued``).
        var cursor = QueueBits.Cursor(open, queued)
        while let queueIndex = cursor.next(open, queued) {
            guard let first = queues[queueIndex].heap.first else { continue }
            if jobs.isFinished(first.number) { return nil }
            let time = first.time
            if time < earliest {
                earliest = time
                let lowered = max(now, time)
                if lowered < threshold {
                    candidateCount = 0
                    threshold = lowered
                }
            }
            guard time <= threshold else { continue }
            let width = queues[queueIndex].freeThreads
            if width == 1 {
                addCandidate(Candidate(queue: queueIndex, heapIndex: 0))
            } else {
                appendReadyJobs(ofQueue: queueIndex, width: width, now: threshold)
            }
        }
        return earliest
    }

    /// Appends up to `width` ready, live jobs of one queue in (time, id) order, by a best-first
    /// walk of its heap from the root: each visited entry's children join the frontier, and the
    /// frontier's smallest entry is the next in order. Cancelled entries are passed over.
    /// O(k²) for the k entries visited (k is close to `width`, and widths are small).
    private mutating func appendReadyJobs(ofQueue queueIndex: Int, width: Int, now: Int64) {
        let heap = queues[queueIndex].heap
        frontier.removeAll(keepingCapacity: true)
        frontier.append(0)
        var offered = 0
        while offered < width, !frontier.isEmpty {
            var best = 0
            for position in 1..<frontier.count
            where heap[frontier[position]].precedes(heap[frontier[best]]) {
                best = position
            }
            let heapIndex = frontier[best]
            frontier.swapAt(best, frontier.count - 1)
            frontier.removeLast()
            let job = heap[heapIndex]
            if job.time > now { break }
            if !jobs.isFinished(job.number) {
                addCandidate(Candidate(queue: queueIndex, heapIndex: heapIndex))
                offered += 1
            }
            let left = 2 * heapIndex + 1
            if left < heap.count { frontier.append(left) }
            if left + 1 < heap.count { frontier.append(left + 1) }
        }
    }
}
