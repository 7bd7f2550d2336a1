extension Scheduler {
    /// Runs now, inertly, every actor turn waiting on a dead process's queue
    /// (``releaseDeadQueues(_:)``), then the turns those left there, up to `maxTurns`; returns
    /// how many ran. Nothing without Swift concurrency in the run, or on a runtime that does not
    /// tell a turn from a task job.
    @discardableResult
    func releaseActorsOfDeadQueues(maxTurns: Int = 10_000) -> Int {
        guard let ledger = asyncState?.ledger, !deadQueues.isEmpty, ledger.pendingJobCount > 0 else { return 0 }
        let takeTurns = { ledger.takeJobs(where: { self.deadQueues.contains($1) && Self.isActorTurn($0) }, cancellingIn: self) }
        var taken = takeTurns()
        guard !taken.isEmpty else { return 0 }  // the common case: nothing to run, nothing made inert
        var turns = 0
        withInertCalls {
            while !taken.isEmpty {
                for pending in taken {
                    pending.run()
                    turns += 1
                }
                taken = turns < maxTurns && ledger.pendingJobCount > 0 ? takeTurns() : []
            }
        }
        return turns
    }

    /// Runs an actor's turn, marking the running simulated thread as running one meanwhile: a
    /// process that dies while the turn is off the CPU leaves the actor held by that thread
    /// (``releaseDeadQueues(_:)`` unwinds it).
    func whileRunningActorTurn(_ turn: () -> Void) {
        guard let threadsCall, let me = threadsCall.call({ $0.state.current }) else { return turn() }
        threadsCall.call { $0.state.threads[me].runsActorTurn = true }
        turn()
        threadsCall.call { $0.state.threads[me].runsActorTurn = false }
    }

    /// Whether `job` is one of the runtime's own jobs (an actor's turn, an isolated deinit)
    /// rather than a task's.
    static func isActorTurn(_ job: UnownedJob) -> Bool {
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
            return !RunJobStamps.isTask(job)
        }
        return false
    }
}
