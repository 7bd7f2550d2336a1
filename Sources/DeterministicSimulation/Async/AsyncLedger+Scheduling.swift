/// The one way a task job enters a run, for both executors: recorded in the ledger, then
/// scheduled as a scheduler job that runs it with its own executor.
extension AsyncLedger {
    /// Schedules the runtime's `job` on `queue` (after `delay` of virtual time, now if nil) as a
    /// job of `target`, or hands it to the teardown drain when the run is over.
    ///
    /// ```swift
    /// state.ledger.schedule(job, on: .main(self), queue: queue, in: scheduler)   // SimulationMainExecutor.enqueue
    /// ```
    ///
    /// Contract: only on the run's thread (the baton holder). The scheduler job takes the ledger's
    /// entry when it runs, after a scheduling point (a resumption may be preempted under
    /// controlled concurrency), and runs nothing if teardown took the entry first.
    func schedule(_ job: UnownedJob, on target: Target, queue: QueueID, in scheduler: Scheduler,
                  after delay: VirtualDuration? = nil) {
        if isDraining {
            drain(PendingJob(job: job, target: target, queue: queue, scheduled: nil))
            return
        }
        if stampSerial != 0, #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *),
           let newTask = RunJobStamps.stamp(job, serial: stampSerial) {
            scheduler.notePlainTaskScheduled(newTask)
        }
        let slot = addJob(job, on: target, queue: queue)
        let run = { [self, unowned scheduler] in  // the scheduler owns its jobs: no cycle
            scheduler.schedulingPoint()
            guard let pending = takeJob(slot) else { return }  // teardown ran it
            if case .defaultTask = pending.target, Scheduler.isActorTurn(pending.job) {
                scheduler.whileRunningActorTurn { pending.run() }
            } else {
                pending.run()
            }
        }
        let id = if let delay { scheduler.asyncAfter(delay, on: queue, run) } else { scheduler.async(on: queue, run) }
        setScheduled(slot, id)
    }
}

extension AsyncLedger.PendingJob {
    /// Runs the job synchronously with the executor it was enqueued on.
    func run() {
        switch target {
        case .task(let executor): job.runSynchronously(on: executor.asUnownedTaskExecutor())
        case .main(let executor): job.runSynchronously(on: executor.asUnownedSerialExecutor())
        case .realMain(let executor): job.runSynchronously(on: executor)
        case .defaultTask(let executor): job.runSynchronously(on: executor)
        }
    }
}
