/// Where the process's executors (``ProcessExecutors``) put a run's jobs: the run side of the
/// routing, on the thread running the run's job (the baton holder).
extension Scheduler {
    /// Takes a job the runtime sent to the real main actor from this run: schedules it on the
    /// current domain's simulated main queue, to run as the process main executor's job. False
    /// (and an escape recorded) when the run has no async domain: the job then goes to the real
    /// main thread.
    ///
    /// ```swift
    /// if let scheduler = RunThreadMarker.current, scheduler.routeMainActorJob(job, on: self) { return }
    /// ```
    func routeMainActorJob(_ job: UnownedJob, on executor: some SerialExecutor) -> Bool {
        guard let state = asyncState, let main = state.mainExecutor else {
            asyncStateMakingIfNeeded.record(.realMainActor, scheduler: self)
            return false
        }
        state.ledger.schedule(job, on: .realMain(executor.asUnownedSerialExecutor()), queue: main.queue, in: self)
        return true
    }

    /// Takes a job the runtime sent to the default executor from this run (`Task {}`,
    /// `Task.detached`, a nonisolated task resuming): schedules it on the current domain's tasks
    /// queue. False (and an escape recorded) when the run has no async domain.
    func routeDefaultJob(_ job: UnownedJob, on executor: some TaskExecutor) -> Bool {
        guard let state = asyncState, let tasks = state.taskExecutor else {
            asyncStateMakingIfNeeded.record(.globalExecutor, scheduler: self)
            return false
        }
        state.ledger.schedule(job, on: .defaultTask(executor.asUnownedTaskExecutor()), queue: tasks.queue, in: self)
        return true
    }

    /// Schedules the wake-up job of a sleep (`Task.sleep`, a clock's `sleep`) from this run at
    /// `instant` of `clock`, on virtual time (see ``VirtualDeadline``), on the current domain's
    /// tasks queue. When the run is over (teardown's drain), the sleeping task cancels itself
    /// instead, so that cancellation-aware loops end and their tasks are freed. False (and an
    /// escape recorded) when the run has no async domain: the sleep then waits on real time.
    ///
    /// ```swift
    /// if let scheduler = RunThreadMarker.current, scheduler.scheduleWake(job, at: instant, clock: clock) { return }
    /// ```
    func scheduleWake<C: Clock>(_ job: UnownedJob, at instant: C.Instant, clock: C) -> Bool {
        guard let state = asyncState, let tasks = state.taskExecutor else {
            asyncStateMakingIfNeeded.record(.realClockSleep(clock: "\(C.self)"), scheduler: self)
            return false
        }
        if state.ledger.isDraining {
            withUnsafeCurrentTask { $0?.cancel() }  // the sleep resumes at once, throwing CancellationError
            tasks.schedule(job)  // goes to the drain, which runs it (it finds the sleep over)
            return true
        }
        switch VirtualDeadline.delay(until: instant, clock: clock, now: now) {
        case .exact(let delay):
            tasks.schedule(job, after: delay)
        case .approximate(let delay):
            state.record(.realClockSleep(clock: "\(C.self)"), scheduler: self)
            tasks.schedule(job, after: delay)
        }
        return true
    }
}
