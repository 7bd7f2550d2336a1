extension ThreadController {
    /// How many waits a thread may make while the run's end unwinds it, each returning at once,
    /// before it is given up.
    static let unwindingWaitLimit = 1_000

    /// Counts a plain wait (a dispatch semaphore or group, a sleep) that returned at once because
    /// the run's end is unwinding the current thread, and gives the thread up when it keeps
    /// waiting.
    ///
    /// Why: at the run's end each suspended thread's job is resumed to run to its end, every
    /// blocking call returning at once. App code waits in loops on a condition it re-checks
    /// (`while !done { Thread.sleep(forTimeInterval: 0.1) }`, a semaphore waited with a
    /// timeout until it is signalled), and what would make it true (a block on a frozen queue, a
    /// dead process's work) never runs now: resumed, such a job would spin forever and the
    /// campaign would hang.
    ///
    /// Contract: only while ``unwind()`` resumes the run's threads, after the verdict (nothing
    /// recorded changes). Past ``unwindingWaitLimit`` such waits the job is left where it is and
    /// never resumed: its worker leaves the pool (``SimulatedThreadPool/retire(_:)``) keeping its
    /// stack, and what the job's frames hold is never released (a real mutex it holds stays
    /// locked). The driver goes on with the next thread. Deterministic: the count decides.
    func noteUnwindingWait(in scheduler: Scheduler) {
        guard state.isFinalUnwind, let me = state.current else { return }
        state.threads[me].unwindingWaits += 1
        guard state.threads[me].unwindingWaits > Self.unwindingWaitLimit,
              let worker = state.threads[me].worker, worker.call({ $0 !== driverWorker }) else { return }
        state.threads[me].worker = nil
        state.threads[me].state = .idle
        state.current = nil
        plainLocks.setCurrent(nil)
        scheduler.core.runningQueue = -1
        state.givenUpCount += 1
        worker.call { given in poolCall.call { $0.retire(given) } }
        let driver = driverWorker
        worker.call { $0.handOff(to: driver) }
        preconditionFailure("a simulated thread given up at the run's end was resumed")
    }
}
