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
    }

    /// One scheduled task job: the runtime's job, its executor and the scheduler job that runs it.
    struct PendingJob {
        var job: UnownedJob
        var target: Target
        var scheduled: JobID?
    }

    private var jobs: [PendingJob?] = []
    private var freeJobSlots: [Int] = []
    private var waits: [UnsafeCurrentTask?] = []
    private var freeWaitSlots: [Int] = []

    /// The number of task jobs scheduled and not yet run.
    private(set) var pendingJobCount = 0
    /// The number of tasks inside a cancellation-aware wait.
    private(set) var waitingTaskCount = 0

    // MARK: Jobs

    /// Records a job about to be scheduled; returns its slot (for the scheduler job's closure).
    func addJob(_ job: UnownedJob, on target: Target) -> Int {
        pendingJobCount += 1
        let entry = PendingJob(job: job, target: target, scheduled: nil)
        if let slot = freeJobSlots.popLast() {
            jobs[slot] = entry
            return slot
        }
        jobs.append(entry)
        return jobs.count - 1
    }

    /// Notes the id of the scheduler job that will run the job in `slot`.
    func setScheduled(_ slot: Int, _ id: JobID) {
        jobs[slot]?.scheduled = id
    }

    /// Takes the job in `slot` to run it now; nil if teardown took it already.
    func takeJob(_ slot: Int) -> PendingJob? {
        guard let entry = jobs[slot] else { return nil }
        jobs[slot] = nil
        freeJobSlots.append(slot)
        pendingJobCount -= 1
        return entry
    }

    /// Takes every pending job, in slot order, cancelling the scheduler jobs that would run them.
    func takeAllJobs(cancellingIn scheduler: Scheduler) -> [PendingJob] {
        var taken: [PendingJob] = []
        for slot in jobs.indices {
            guard let entry = takeJob(slot) else { continue }
            if let id = entry.scheduled { scheduler.cancel(id) }
            taken.append(entry)
        }
        return taken
    }

    // MARK: Waits

    /// Records the calling task as inside a cancellation-aware wait; returns its slot, or nil
    /// when called outside a task.
    func enterWait() -> Int? {
        withUnsafeCurrentTask { task -> Int? in
            guard let task else { return nil }
            waitingTaskCount += 1
            if let slot = freeWaitSlots.popLast() {
                waits[slot] = task
                return slot
            }
            waits.append(task)
            return waits.count - 1
        }
    }

    /// Ends the wait ``enterWait()`` recorded in `slot`.
    func leaveWait(_ slot: Int) {
        guard waits[slot] != nil else { return }
        waits[slot] = nil
        freeWaitSlots.append(slot)
        waitingTaskCount -= 1
    }

    /// Cancels every waiting task not yet cancelled, in slot order, and returns how many. Each
    /// cancellation runs the task's cancellation handlers at once, on this thread.
    func cancelWaitingTasks() -> Int {
        // A snapshot: handlers run by a cancellation may end other waits (never start one:
        // tasks run only when the drain runs their jobs).
        let waiting = waits.compactMap { $0 }
        var cancelled = 0
        for task in waiting where !task.isCancelled {
            task.cancel()
            cancelled += 1
        }
        return cancelled
    }

    /// Drops every record (after the drain; what is left is reported, not kept).
    func removeAll() {
        jobs = []
        freeJobSlots = []
        waits = []
        freeWaitSlots = []
        pendingJobCount = 0
        waitingTaskCount = 0
    }
}
