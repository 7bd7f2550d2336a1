/// What a run's Swift concurrency has left with the simulator: the task jobs scheduled but not
/// yet run, and the tasks suspended in a cancellation-aware wait (a virtual sleep, a
/// ``SimulationTaskExecutor/withCancellableWait(isolation:_:)`` scope). ``Scheduler/drainAsync(maxJobs:)``
/// reads it at teardown to finish those tasks instead of abandoning them.
///
/// ```swift
/// let slot = ledger.addJob(job, on: .task(executor))      // the executor schedules a job
/// ledger.setScheduled(slot, id)                            // with its scheduler job's id
/// if let pending = ledger.takeJob(slot) { run(pending) }  // the scheduler job runs it
/// ```
///
/// Why a ledger: a Swift task suspended when a run ends is never destroyed (the runtime frees a
/// task only when it completes), so abandoning its wake-up job or its sleep leaks it and
/// everything it captured: about 10 KB per async token run before the ledger. Tracking the two
/// places the simulator holds tasks lets teardown complete them deterministically.
///
/// Contract: touched only by the thread running the run's jobs (the baton holder), like the
/// scheduler; no lock. Slots are reused through a free list, so the ledger's size is the most
/// jobs and waits alive at once, not the run's total. Order is deterministic (slot order, no
/// hashing). The stored `UnsafeCurrentTask`s are the only unsafe part of the async layer's
/// bookkeeping: each is stored only while its task is inside the wait (suspended or running),
/// hence alive, and dropped when the wait ends.
final class AsyncLedger {
    /// Which executor a pending job belongs to, so that it runs with the right executor.
    enum Target {
        case task(SimulationTaskExecutor)
        case main(SimulationMainExecutor)
        /// A job of the real main actor, run as the process main executor's
        /// (``ProcessMainExecutor``) on the run's simulated main queue.
        case realMain(UnownedSerialExecutor)
        /// A job of a task without an executor preference (`Task {}`), run as the process
        /// default executor's (``ProcessDefaultExecutor``) on the run's tasks queue: run as
        /// another task executor's, the task would hop at each nonisolated call.
        case defaultTask(UnownedTaskExecutor)
    }

    /// One scheduled task job: the runtime's job, its executor, the simulated queue it waits on
    /// and the scheduler job that runs it.
    struct PendingJob {
        var job: UnownedJob
        var target: Target
        var queue: QueueID
        var scheduled: JobID?
    }

    /// The ledger's mutable state, in one place.
    struct Table {
        var jobs: [PendingJob?] = []
        var freeJobSlots: [Int] = []
        var waits: [WaitingTask?] = []
        var freeWaitSlots: [Int] = []
        var pendingJobCount = 0
        var waitingTaskCount = 0
        var isDraining = false
        var drained: [PendingJob] = []
        var nextDrained = 0
    }

    /// Unchecked exclusivity: every task job and every sleep passes through here, and the
    /// dynamic checks cost more than the updates (about 3% of an async token run's instructions
    /// under callgrind). Safe because the ledger is confined to the run's baton holder and no
    /// access spans a call that could reach the ledger again: runtime calls (a cancel, which runs
    /// handlers) are made on values read out first, and `withUnsafeCurrentTask` calls its body
    /// synchronously with nothing else in between.
    @exclusivity(unchecked) private var table = Table()

    /// The run's serial in ``RunJobStamps`` (0: not registered, jobs are not stamped).
    var stampSerial: UInt32 = 0

    /// The number of task jobs scheduled and not yet run.
    var pendingJobCount: Int { table.pendingJobCount }
    /// The number of tasks inside a cancellation-aware wait.
    var waitingTaskCount: Int { table.waitingTaskCount }

    /// Whether the run is over (``Scheduler/drainAsync(maxJobs:)`` began): the executors then
    /// hand every job to ``drain(_:)`` and every virtual sleep is cancelled.
    var isDraining: Bool { table.isDraining }

    // MARK: Jobs

    /// Records a job about to be scheduled; returns its slot (for the scheduler job's closure).
    func addJob(_ job: UnownedJob, on target: Target, queue: QueueID) -> Int {
        table.pendingJobCount += 1
        let entry = PendingJob(job: job, target: target, queue: queue, scheduled: nil)
        if let slot = table.freeJobSlots.popLast() {
            table.jobs[slot] = entry
            return slot
        }
        table.jobs.append(entry)
        return table.jobs.count - 1
    }

    /// Notes the id of the scheduler job that will run the job in `slot`.
    func setScheduled(_ slot: Int, _ id: JobID) {
        table.jobs[slot]?.scheduled = id
    }

    /// Takes the job in `slot` to run it now; nil if teardown took it already.
    func takeJob(_ slot: Int) -> PendingJob? {
        guard let entry = table.jobs[slot] else { return nil }
        table.jobs[slot] = nil
        table.freeJobSlots.append(slot)
        table.pendingJobCount -= 1
        return entry
    }

    /// Moves every pending job, in slot order, to the drain's queue, cancelling the scheduler
    /// jobs that would have run them.
    func drainPendingJobs(cancellingIn scheduler: Scheduler) {
        var cancelled: [JobID] = []
        for slot in table.jobs.indices {
            guard let entry = takeJob(slot) else { continue }
            if let id = entry.scheduled { cancelled.append(id) }
            table.drained.append(entry)
        }
        for id in cancelled { scheduler.cancel(id) }  // outside every access to the table
    }

    /// Takes, in slot order, every pending job that `matches` (the runtime's job and the queue it
    /// waits on), cancelling the scheduler jobs that would have run them; the caller runs them.
    func takeJobs(where matches: (UnownedJob, QueueID) -> Bool, cancellingIn scheduler: Scheduler) -> [PendingJob] {
        var taken: [PendingJob] = []
        for slot in table.jobs.indices {
            guard let entry = table.jobs[slot], matches(entry.job, entry.queue), let pending = takeJob(slot) else { continue }
            taken.append(pending)
        }
        for id in taken.compactMap(\.scheduled) { scheduler.cancel(id) }  // outside every access to the table
        return taken
    }

    // MARK: The drain's queue

    /// Starts draining: from now on jobs go to ``drain(_:)``.
    func beginDraining() {
        table.isDraining = true
    }

    /// Queues a job for the drain (FIFO).
    func drain(_ job: PendingJob) {
        table.drained.append(job)
    }

    /// The next job of the drain's queue, or nil when it is empty.
    func nextDrained() -> PendingJob? {
        guard table.nextDrained < table.drained.count else {
            table.drained.removeAll(keepingCapacity: true)
            table.nextDrained = 0
            return nil
        }
        defer { table.nextDrained += 1 }
        return table.drained[table.nextDrained]
    }

    /// The number of jobs still queued for the drain.
    var drainedCount: Int { table.drained.count - table.nextDrained }

    // MARK: Waits

    /// Records the calling task as inside a cancellation-aware wait; returns its slot, or nil
    /// when called outside a task.
    func enterWait() -> Int? {
        withUnsafeCurrentTask { task -> Int? in
            guard let task else { return nil }
            let waiting = WaitingTask(task)
            table.waitingTaskCount += 1
            if let slot = table.freeWaitSlots.popLast() {
                table.waits[slot] = waiting
                return slot
            }
            table.waits.append(waiting)
            return table.waits.count - 1
        }
    }

    /// Ends the wait ``enterWait()`` recorded in `slot`.
    func leaveWait(_ slot: Int) {
        guard table.waits[slot] != nil else { return }
        table.waits[slot] = nil
        table.freeWaitSlots.append(slot)
        table.waitingTaskCount -= 1
    }

    /// Cancels every waiting task not yet cancelled, in slot order, and returns how many. Each
    /// cancellation runs the task's cancellation handlers at once, on this thread.
    func cancelWaitingTasks() -> Int {
        // A snapshot: handlers run by a cancellation may end other waits (never start one:
        // tasks run only when the drain runs their jobs).
        let waiting = table.waits.compactMap { $0 }
        var cancelled = 0
        for waiting in waiting where !waiting.task.isCancelled {
            waiting.task.cancel()
            cancelled += 1
        }
        return cancelled
    }

    /// Drops every record and stays draining (after the drain; what is left is reported, not
    /// kept). The records are released outside the access to the table.
    func removeAll() {
        var released = Table()
        released.isDraining = true
        swap(&released, &table)
        withExtendedLifetime(released) {}
    }
}

/// A task in a cancellation-aware wait, boxed: `UnsafeCurrentTask` is resilient, so an array of
/// it goes through generic value witnesses at every update; an array of references does not.
final class WaitingTask {
    let task: UnsafeCurrentTask

    init(_ task: UnsafeCurrentTask) {
        self.task = task
    }
}
