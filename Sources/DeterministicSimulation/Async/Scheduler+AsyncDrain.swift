/// What ``Scheduler/drainAsync(maxJobs:)`` did with the tasks a run left suspended.
///
/// ```swift
/// let drain = scheduler.drainAsync()
/// if drain.tasksLeftWaiting > 0 { print("\(drain.tasksLeftWaiting) tasks never resumed after cancellation") }
/// ```
///
/// Contract: counts only; nothing here is part of a run's trace or digest.
public struct AsyncDrainResult: Equatable, Sendable {
    /// Task jobs the drain ran (resumptions, starts, main-actor hops).
    package var jobsRun = 0
    /// Tasks the drain cancelled because they were asleep on the virtual clock or inside a
    /// ``SimulationTaskExecutor/withCancellableWait(isolation:_:)`` scope.
    public var tasksCancelled = 0
    /// Tasks still inside a cancellation-aware wait when the drain ended: cancelled, yet never
    /// resumed (a continuation their code resumes on no path after cancellation). Swift cannot
    /// destroy a suspended task, so each of these stays in memory for the process's life: a
    /// leak in the workload's code, like the hang it would be in an app.
    public var tasksLeftWaiting = 0
    /// Jobs left unrun because `maxJobs` was reached (a task that loops without ever ending).
    package var jobsLeft = 0

    /// A drain that found nothing.
    public init() {}
}

extension Scheduler {
    /// Finishes, outside the run, the Swift tasks the run left suspended, so that their memory
    /// is freed: cancels every task asleep on the run's ``SimulationClock`` or inside a
    /// ``SimulationTaskExecutor/withCancellableWait(isolation:_:)`` scope, then runs every task job the run had
    /// scheduled (on any queue, frozen or not, due now or later) and every job those produce,
    /// in order, on the calling thread, until none is left or `maxJobs` ran. Call it at teardown,
    /// after the run's outcome was taken and before ``discardPendingJobs(rounds:)``.
    ///
    /// ```swift
    /// scheduler.runLast(until: horizon) { stop in verdict = judge(stop) }
    /// let drain = scheduler.drainAsync()         // the tasks end, cancelled; nothing is recorded
    /// scheduler.discardPendingJobs()
    /// scheduler.releaseAsync()
    /// ```
    ///
    /// Why: the runtime frees a task only when it completes, and nothing can destroy a suspended
    /// one. A run that ends with tasks asleep, queued on a frozen (suspended or dead) process's
    /// queue or waiting for a hop would otherwise leak each of them with all they captured
    /// (measured: about 10 KB per async token run, 122 MB after 10,000 runs).
    ///
    /// Contract:
    /// - Deterministic (ledger order, FIFO), no choices drawn by the drain itself, and no effect
    ///   on anything already judged: call it once the run's trace and verdict are taken (the
    ///   workload code it resumes may still call the simulator; what it emits then is the
    ///   caller's to ignore).
    /// - From the call on, every virtual sleep throws `CancellationError` and every task job
    ///   goes to the drain instead of the scheduler (also after it returns: jobs made by later
    ///   teardown steps are never run).
    /// - Tasks suspended on a continuation that their own code never resumes, or that only a
    ///   plain callback job would resume, cannot be reached: the first kind is counted in
    ///   ``AsyncDrainResult/tasksLeftWaiting`` when inside a cancellation-aware wait.
    /// - Not from inside a job; does nothing without ``enableAsync(taskWidth:mainQueue:)``.
    /// - Parameter maxJobs: the most task jobs to run (livelock guard).
    /// - Returns: what the drain did and what it could not finish.
    @discardableResult
    public func drainAsync(maxJobs: Int = 100_000) -> AsyncDrainResult {
        var result = AsyncDrainResult()
        guard let state = asyncState, state.taskExecutor != nil else { return result }
        let mark = RunThreadMarker.enter(self)
        defer { RunThreadMarker.leave(restoring: mark) }
        let ledger = state.ledger
        ledger.beginDraining()
        // Jobs in progress on suspended simulated threads (a task job preempted mid-way, before it
        // reached its `await`) end first, failing fast: a task they carry then waits where the
        // cancellation below reaches it, and the jobs they make come to the drain. Unwound after
        // the drain instead (as `discardPendingJobs` did), such a task entered its wait too late
        // to be cancelled and was counted as left waiting (podcast-downloads, one run of 20).
        threads?.unwind()
        while true {
            result.tasksCancelled += ledger.cancelWaitingTasks()
            ledger.drainPendingJobs(cancellingIn: self)
            guard ledger.drainedCount > 0 else { break }
            while let pending = ledger.nextDrained() {
                if result.jobsRun >= maxJobs {
                    result.jobsLeft = ledger.drainedCount + 1
                    result.tasksLeftWaiting = ledger.waitingTaskCount
                    return result
                }
                pending.run()
                result.jobsRun += 1
            }
        }
        result.tasksLeftWaiting = ledger.waitingTaskCount
        return result
    }

    /// Lets go of the run's async state once the run is torn down: its executors, clock and
    /// ledger (they refer to each other, so without this they would outlive the run).
    ///
    /// ```swift
    /// scheduler.discardPendingJobs()
    /// scheduler.releaseAsync()      // the last teardown step
    /// ```
    ///
    /// Contract: afterwards ``taskExecutor``, ``asyncClock`` and ``mainActorExecutor`` trap, and a
    /// task that still prefers one of the released executors must never run again (abandoned
    /// tasks never do). ``asyncEscapes`` stays readable.
    public func releaseAsync() {
        guard let state = asyncState else { return }
        if state.ledger.stampSerial != 0, #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
            RunJobStamps.unregister(state.ledger.stampSerial)
        }
        state.ledger.removeAll()
        state.taskExecutor = nil
        state.mainExecutor = nil
        state.clock = nil
        state.retired = []
    }
}
