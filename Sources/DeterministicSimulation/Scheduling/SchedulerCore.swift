/// All mutable state of a ``Scheduler``, as one struct.
///
/// Why a struct: Swift checks exclusive access to a class's stored properties at run time, once
/// per access, which cost about 40% of a step when the state was spread over the class. The
/// scheduler now makes one access to this struct per operation (one to schedule, two per step:
/// take a job, finish it), and everything inside is checked statically. Jobs never run inside an
/// access, and no closure is released inside one (cancelled jobs' closures wait in ``dropped``),
/// so a job or a deinit may call back into the scheduler freely.
struct SchedulerCore {
    /// A job offered in the current step: its queue and its position in that queue's heap.
    struct Candidate {
        var queue: Int
        var heapIndex: Int
    }

    /// The job the current step runs, taken off its queue (plain values; its closure is handed
    /// to the scheduler separately, see ``takeNextJob(limit:clock:choices:)``). Kept in the core
    /// rather than returned as an `Optional` struct holding the closure: destroying that
    /// optional went through generic value-witness code on every step.
    struct TakenJob {
        var job = ScheduledJob(time: 0, number: 0, slot: 0)
        var queue = 0
        var interval: Int64 = 0
        var isTimer = false
        var startTime: Int64 = 0
    }

    /// The queues, by creation index. Add one with ``addQueue(_:)``, freeze or thaw it with
    /// ``setFrozen(_:queue:)`` and occupy or release its threads with ``occupyThread(ofQueue:)``
    /// and ``releaseThread(ofQueue:)``, which keep ``open`` in step; every change to a heap
    /// keeps ``queued`` in step.
    var queues: [SimulatedQueue] = [SimulatedQueue(label: "main", kind: .serial)]
    /// The queues that can start a job: not frozen, and with a free thread (without controlled
    /// concurrency every thread is always free, so these are the unfrozen queues).
    var open = QueueBits(members: 0)
    /// The queues with at least one job in their heap (cancelled ones included). A step visits
    /// the queues in both sets, in index order, so the queues of ended processes (frozen) and
    /// empty open queues cost it nothing.
    var queued = QueueBits()
    /// Closures and finished bits.
    var jobs = JobTable()
    /// Scratch: the candidates of the current step are its first ``candidateCount`` elements
    /// (reused to avoid allocation; emptied by resetting the count, because
    /// `removeAll(keepingCapacity:)` went through generic `replaceSubrange` and a uniqueness
    /// check, twice per step).
    var candidates: [Candidate] = []
    /// The number of valid elements of ``candidates``.
    var candidateCount = 0
    /// The index among ``candidates`` of the job ``takeNextJob(limit:clock:choices:)`` took last.
    var chosenCandidate = 0
    /// Scratch: heap positions to visit while collecting a concurrent queue's candidates.
    var frontier: [Int] = []
    /// Jobs not cancelled and not yet run; a live repeating timer counts as one.
    var pendingJobCount = 0
    /// Jobs run so far.
    var stepsRun = 0
    /// Steps (jobs started, threads resumed) since virtual time last passed for the app: a job
    /// came due later, or a thread's own sleep ended (a preemption delay the scheduler drew does
    /// not count). See ``BusyLoop``.
    var stepsWithoutWaiting = 0
    /// When ``stepsWithoutWaiting`` began, in microseconds.
    var busySince: Int64 = 0
    /// Steps without waiting that make a busy loop (``Scheduler/busyLoopLimit``).
    var busyLoopLimit = Int.max
    /// The busy loop found, if any (``Scheduler/busyLoop``).
    var busyLoop: BusyLoop?
    /// The crash slot of the run in progress, whose progress counter every step bumps (the hang
    /// watchdog tells a slow run from a stuck one by it); looked up once per `run` or `step` call
    /// (``Scheduler/lookUpProgressSlot()``) until found, nil while no watchdog or handler reads slots.
    var progressSlot: Unretained<CrashSlot>?
    /// The running job, valid while ``isRunningJob``.
    var taken = TakenJob()
    /// Whether a job is running (steps may not nest).
    var isRunningJob = false
    /// Closures of cancelled jobs dropped during an access, for the scheduler to release after
    /// it: releasing one may run a deinit that calls back into the scheduler.
    var dropped: [DroppedWork] = []

    /// Counts the changes that may add a job to, or drop one from, the candidates a decision would
    /// gather at the current time, while ``tracksCandidateChanges`` is set (PCT): a job that may
    /// start now on its queue's idle thread (``noteEnqueued(_:queue:)``), a cancellation, a queue
    /// frozen or thawed, a cancelled job uncovered at a queue's front by a take, a repeating timer
    /// put back. A new job behind another on a serial queue, or due later, or on a busy or frozen
    /// queue, changes nothing now and is not counted. Conservative: a count that moves may change
    /// nothing; a change it misses would be a bug (``PCTPolicy/point(running:progress:mayKnowDecision:choices:)``
    /// relies on it).
    var candidateEpoch: UInt64 = 0
    /// Whether ``candidateEpoch`` is kept (PCT runs only; others pay nothing for it).
    var tracksCandidateChanges = false
    /// The queue of the simulated thread whose job holds the baton (-1 at loop level): its own
    /// serial queue is busy until that job ends, so a job it enqueues there cannot start.
    var runningQueue = -1

    /// Counts one step of the run as progress on its crash slot, if it has one (a relaxed load
    /// and store: see ``CrashSlot/noteProgress()``). Mutating only so that a call through the
    /// scheduler (`scheduler.core.noteProgress()`) accesses the core in place: a non-mutating call
    /// copied the whole struct (+1.5% instructions on the token workload).
    @inline(__always)
    mutating func noteProgress() {
        progressSlot?.call { $0.noteProgress() }
    }

    /// Counts a step at virtual instant `now` (microseconds); the ``busyLoopLimit``-th since
    /// time last passed for the app records a ``busyLoop``.
    @inline(__always)
    mutating func noteStep(at now: Int64) {
        stepsWithoutWaiting &+= 1
        if stepsWithoutWaiting == busyLoopLimit, busyLoop == nil {
            busyLoop = BusyLoop(steps: stepsWithoutWaiting, from: VirtualTime(microseconds: busySince),
                                to: VirtualTime(microseconds: now))
        }
    }

    /// Virtual time passed for the app, to `now`: a job came due, or a thread's own sleep ended.
    @inline(__always)
    mutating func noteTimePassed(to now: Int64) {
        stepsWithoutWaiting = 0
        busySince = now
    }

    /// Appends a candidate to the current step's list.
    @inline(__always)
    mutating func addCandidate(_ candidate: Candidate) {
        if candidateCount < candidates.count {
            candidates[candidateCount] = candidate
        } else {
            candidates.append(candidate)
        }
        candidateCount += 1
    }

    /// The array index of a queue, checking that it exists.
    @inline(__always)
    func index(of queue: QueueID) -> Int {
        precondition(
            queue.rawValue >= 0 && queue.rawValue < queues.count,
            "unknown queue \(queue.rawValue): it was not made by this scheduler")
        return queue.rawValue
    }

    /// Appends a queue (unfrozen) and returns its index.
    mutating func addQueue(_ queue: SimulatedQueue) -> Int {
        queues.append(queue)
        open.insert(queues.count - 1)
        return queues.count - 1
    }

    /// Freezes or thaws the queue at `queueIndex`; doing what is already so does nothing.
    mutating func setFrozen(_ frozen: Bool, queue queueIndex: Int) {
        guard queues[queueIndex].isFrozen != frozen else { return }
        queues[queueIndex].isFrozen = frozen
        candidateEpoch &+= 1
        if frozen {
            open.remove(queueIndex)
        } else if queues[queueIndex].freeThreads > 0 {
            open.insert(queueIndex)
        }
    }

    /// Whether the queue at `queueIndex` is frozen (its jobs wait; its threads stay stopped).
    /// `mutating` though it only reads, like ``earliestDueTime(occupying:)``: called on the
    /// scheduler's stored core, a non-mutating method copied the whole struct (every array in
    /// it retained and released) on each call.
    @inline(__always)
    mutating func isFrozen(queue queueIndex: Int) -> Bool { queues[queueIndex].isFrozen }

    /// The earliest due time of a job that could start if one more thread of `busyQueue` were
    /// occupied (``occupyThread(ofQueue:)``), as ``gatherCandidates(now:)`` would report it then
    /// (`Int64.max` for none); `nil` at the first queue whose front job is cancelled. Read-only
    /// (`mutating` only to borrow the core in place: see ``isFrozen(queue:)``).
    mutating func earliestDueTime(occupying busyQueue: Int) -> Int64? {
        let skipsBusyQueue = queues[busyQueue].freeThreads == 1
        var earliest = Int64.max
        var cursor = QueueBits.Cursor(open, queued)
        while let queueIndex = cursor.next(open, queued) {
            if skipsBusyQueue, queueIndex == busyQueue { continue }
            guard let first = queues[queueIndex].heap.first else { continue }
            if jobs.isFinished(first.number) { return nil }
            if first.time < earliest { earliest = first.time }
        }
        return earliest
    }

    /// Marks one of a queue's threads busy with a job that is in progress off the CPU (a
    /// suspended simulated thread): a serial queue then offers nothing until it is released.
    mutating func occupyThread(ofQueue queueIndex: Int) {
        queues[queueIndex].freeThreads -= 1
        if queues[queueIndex].freeThreads == 0 { open.remove(queueIndex) }
    }

    /// Whether a `sync` onto the queue at `queueIndex` may run on the calling thread now (see
    /// ``Scheduler/sync(on:runsOnCallerWhenFree:_:)``): thawed, and for a serial queue its thread
    /// idle, not the running thread's own, and no job due by `now` ahead of the block (a serial
    /// queue runs its items in order). A concurrent queue does not wait for its other items.
    /// Read-only (`mutating` only to borrow the core in place: see ``isFrozen(queue:)``).
    mutating func acceptsSyncOnCaller(queue queueIndex: Int, now: Int64) -> Bool {
        guard !queues[queueIndex].isFrozen else { return false }
        guard queues[queueIndex].width == 1 else { return true }
        guard queues[queueIndex].freeThreads > 0, queueIndex != runningQueue else { return false }
        if let first = queues[queueIndex].heap.first, first.time <= now { return false }
        return true
    }

    /// Frees a thread taken by ``occupyThread(ofQueue:)``.
    mutating func releaseThread(ofQueue queueIndex: Int) {
        queues[queueIndex].freeThreads += 1
        if queues[queueIndex].freeThreads == 1, !queues[queueIndex].isFrozen { open.insert(queueIndex) }
    }

    /// Stores a job and puts it in its queue's heap, due no earlier than `now`; returns its id
    /// and the slot its closure is stored in (until it starts, or for a repeating timer's life).
    mutating func enqueue(
        dueAt time: Int64, now: Int64, on queue: QueueID, interval: Int64, isTimer: Bool,
        _ work: consuming @escaping () -> Void
    ) -> (job: JobID, slot: Int32) {
        let queueIndex = index(of: queue)
        let number = jobs.takeNumber()
        let slot = jobs.store(consume work, interval: interval, isTimer: isTimer)
        queues[queueIndex].heap.insert(
            ScheduledJob(time: max(time, now), number: number, slot: slot))
        queued.insert(queueIndex)
        pendingJobCount += 1
        if tracksCandidateChanges { noteEnqueued(number, queue: queueIndex, due: time <= now) }
        return (JobID(rawValue: number), slot)
    }

    /// Removes every job from every queue (queues and their frozen flags stay) and returns the
    /// closures, so the caller releases them outside this access. Wrapped in ``DroppedWork``: a
    /// bare closure array allocated a thunk context per job (a run that ends with a long queue,
    /// like notes-import's, spent 3% of its instructions here).
    mutating func takeAllJobs() -> [DroppedWork] {
        var taken: [DroppedWork] = []
        for queueIndex in queues.indices {
            for job in queues[queueIndex].heap.removeAll() {
                if !jobs.isFinished(job.number) { jobs.markFinished(job.number) }
                if let work = jobs.take(job.slot) { taken.append(DroppedWork(work: work)) }
            }
        }
        queued = QueueBits()
        pendingJobCount = 0
        candidateEpoch &+= 1
        return taken
    }

    /// Marks a pending job cancelled; O(1). Unknown, started or cancelled jobs are ignored.
    mutating func cancel(_ job: JobID) {
        let number = job.rawValue
        guard jobs.isKnown(number), !jobs.isFinished(number) else { return }
        jobs.markFinished(number)
        pendingJobCount -= 1
        candidateEpoch &+= 1
    }

    /// Counts a new job in ``candidateEpoch`` when it may start now: due, on a thawed queue with an
    /// idle thread that is not the running thread's own serial queue, and at the front of a serial
    /// queue (any due job of a concurrent queue counts).
    private mutating func noteEnqueued(_ number: UInt64, queue queueIndex: Int, due: Bool) {
        guard due, !queues[queueIndex].isFrozen, queues[queueIndex].freeThreads > 0 else { return }
        if queues[queueIndex].width == 1 {
            guard queueIndex != runningQueue, queues[queueIndex].heap.first?.number == number else { return }
        }
        candidateEpoch &+= 1
    }

    /// The earliest due time on an unfrozen queue, releasing cancelled jobs found at the fronts.
    mutating func earliestEligibleTime() -> Int64? {
        var earliest: Int64?
        var cursor = QueueBits.Cursor(open, queued)
        while let queueIndex = cursor.next(open, queued) {
            guard let first = firstLiveJob(inQueue: queueIndex) else { continue }
            if earliest.map({ first.time < $0 }) ?? true { earliest = first.time }
        }
        return earliest
    }

    /// The front job of a queue, after dropping cancelled jobs at the front (their closures go
    /// to ``dropped``).
    mutating func firstLiveJob(inQueue queueIndex: Int) -> ScheduledJob? {
        while let first = queues[queueIndex].heap.first {
            if !jobs.isFinished(first.number) { return first }
            _ = queues[queueIndex].heap.removeFirst()
            if queues[queueIndex].heap.isEmpty { queued.remove(queueIndex) }
            if let work = jobs.take(first.slot) { dropped.append(DroppedWork(work: work)) }
        }
        return nil
    }
}

/// A dropped job's closure, wrapped so that arrays store it as the struct's concrete field: a
/// bare `() -> Void` array element is stored in its generic (most abstract) form, so each append
/// allocated a reabstraction thunk context (and each release freed it).
struct DroppedWork {
    let work: () -> Void
}
