extension Scheduler {
    /// Gives the run simulated threads: jobs can then be preempted at scheduling points, block
    /// on ``SimulatedLock``s, ``SimulatedSemaphore``s, ``sync(on:_:)`` and ``block(for:)``, and
    /// the run stops with a ``deadlock`` when every thread waits.
    ///
    /// ```swift
    /// let scheduler = Scheduler(choices: ChoiceSource(seed: runSeed))
    /// scheduler.enableControlledConcurrency(.randomWalk(preemptionRate: 0.05), pool: pool)
    /// ```
    ///
    /// Contract: call once, before the first run. The main queue runs on the simulated main
    /// thread, each serial queue on its own thread, a concurrent queue of width `w` on up to `w`
    /// threads. A job that is never suspended runs exactly as without threads (same draws), so
    /// with ``ConcurrencyConfiguration/blockingOnly`` and no blocking a run is unchanged. Before
    /// releasing the scheduler, call ``discardPendingJobs(rounds:)`` (it unwinds suspended
    /// threads and gives the pool back).
    /// - Parameters:
    ///   - configuration: strategy, preemption rate, delays.
    ///   - pool: the OS threads to carry simulated threads (one pool per campaign worker).
    public func enableControlledConcurrency(_ configuration: ConcurrencyConfiguration, pool: SimulatedThreadPool) {
        precondition(threads == nil, "controlled concurrency is already enabled on this scheduler")
        let controller = ThreadController(scheduler: self, configuration: configuration, pool: pool)
        threads = controller
        pointsUntilPreemption = controller.initialCountdown
        core.tracksCandidateChanges = controller.weighsEveryPoint
        if choices.isReplaying {
            // Read only by marks, made while the run goes on; weak all the same (the source
            // outlives the run).
            choices.pointClock = { [weak self, weak controller] in
                guard let self, let controller else { return 0 }
                return controller.pointClock(in: self)
            }
        }
    }

    /// Never keeps a preempted thread of `queue` off the CPU: its preemptions let other threads
    /// run, but no virtual time passes for them (nothing is drawn for a delay). For threads that
    /// the system keeps on the CPU, such as an app's main thread or the system's own queue.
    ///
    /// ```swift
    /// scheduler.disablePreemptionDelays(on: mainQueueID)
    /// ```
    ///
    /// Contract: call after ``enableControlledConcurrency(_:pool:)``; does
    /// nothing without controlled concurrency.
    public func disablePreemptionDelays(on queue: QueueID) {
        guard let threads else { return }
        let index = core.index(of: queue)
        if threads.state.undelayedQueues.count <= index {
            threads.state.undelayedQueues += Array(repeating: false, count: index + 1 - threads.state.undelayedQueues.count)
        }
        threads.state.undelayedQueues[index] = true
    }

    /// Calls `hook` each time a simulated thread of `queue` blocks or sleeps (a lock, a
    /// semaphore, a `sync`, ``block(for:)``), before the scheduler runs anything else. Only then
    /// can virtual time pass while the thread is in the middle of a job, so a simulator arms
    /// timers that watch a thread (a watchdog) there, not for every job.
    ///
    /// ```swift
    /// scheduler.onThreadBlocks(on: main) { armWatchdog() }
    /// ```
    ///
    /// Contract: call after ``enableControlledConcurrency(_:pool:)`` (does nothing
    /// without it); a later call for the same queue replaces its hook. Per queue, so a thread of
    /// any other queue blocks without calling anything (most blocking is background work). The
    /// hook runs on the blocking thread, holding the baton: it may schedule or cancel jobs, never
    /// block.
    public func onThreadBlocks(on queue: QueueID, _ hook: @escaping () -> Void) {
        guard let threads else { return }
        let index = core.index(of: queue)
        while threads.state.blockHooks.count <= index { threads.state.blockHooks.append(nil) }
        threads.state.blockHooks[index] = hook
    }

    /// Whether ``enableControlledConcurrency(_:pool:)`` was called.
    public var hasControlledConcurrency: Bool { threads != nil }

    /// Runs `body` with no preemption of the calling simulated thread: a point inside that would
    /// preempt it postpones the preemption to the first point after `body` (random walk) or
    /// skips it (PCT). For a stretch that holds a real lock and reaches scheduling points (a
    /// thread preempted there and a thread chosen next that takes the same real lock would
    /// block the one OS thread allowed to run, and the run would hang).
    ///
    /// ```swift
    /// func whileCoreHoldsLock<Result>(_ body: () -> Result) -> Result {   // a host's seam
    ///     scheduler.withPreemptionDeferred(body)
    /// }
    /// ```
    ///
    /// Contract: per simulated thread (if `body` blocks on a simulated lock or semaphore, the
    /// threads that run meanwhile are preempted as usual); calls nest. Outside a job, or
    /// without controlled concurrency, it only runs `body`. Draws nothing.
    public func withPreemptionDeferred<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard let threadsCall, let me = threadsCall.call({ $0.state.current }) else { return try body() }
        threadsCall.call { $0.state.threads[me].preemptionDeferrals += 1 }
        defer { threadsCall.call { $0.state.threads[me].preemptionDeferrals -= 1 } }
        return try body()
    }

    /// A point where the running simulated thread may be preempted: call it at every host call,
    /// before the call takes effect and after it returns, and inside synchronisation.
    ///
    /// ```swift
    /// func beginBackgroundTask() -> TaskID {
    ///     scheduler.schedulingPoint()
    ///     let id = grant()
    ///     scheduler.schedulingPoint()
    ///     return id
    /// }
    /// ```
    ///
    /// Contract: without controlled concurrency, or when no preemption is due, it decrements a
    /// counter and returns (a few nanoseconds, no draw). Outside a job it does nothing.
    @inlinable
    public func schedulingPoint() {
        if pointsUntilPreemption > 0 {
            pointsUntilPreemption &-= 1
            return
        }
        schedulingPointSlowPath()
    }

    @usableFromInline
    func schedulingPointSlowPath() {
        guard let threadsCall else {
            pointsUntilPreemption = .max
            return
        }
        threadsCall.call { $0.schedulingPointSlowPath(in: self) }
    }

    /// A thread polling in a loop that has no scheduling point of its own (Foundation's
    /// `waitUntilAllOperationsAreFinished()` on Linux, seen by the shim at the loop's lock): when
    /// nothing happened in the run since this thread's last poll, it sleeps a little virtual time
    /// (1 µs, doubling while nothing happens, at most 1 ms), so every other thread may run, under
    /// any strategy; otherwise it goes on at once (``ThreadController/pollPoint(in:)``).
    ///
    /// ```swift
    /// while !listIsEmpty() { scheduler.pollPoint() }   // what the shim makes of such a loop
    /// ```
    ///
    /// Contract: outside a job, without controlled concurrency, or while the run is unwound, it
    /// does nothing. Deterministic: it depends only on the run's progress (jobs and wake-ups).
    public func pollPoint() {
        threadsCall?.call { $0.pollPoint(in: self) }
    }

    /// Blocks only the calling simulated thread for `duration` of virtual time: the clock, due
    /// jobs and other threads go on meanwhile.
    ///
    /// ```swift
    /// scheduler.async(on: uploads) { scheduler.block(for: .seconds(3)); finishUpload() }
    /// ```
    ///
    /// Contract: a zero or negative duration is a scheduling point. Returns at once outside a
    /// job, or while the run is unwound. Needs controlled concurrency (traps without).
    public func block(for duration: VirtualDuration) {
        guard let threadsCall else { _ = requireThreads("block(for:)"); return }
        threadsCall.call { $0.sleepCurrent(microseconds: duration.microseconds, in: self) }
    }

    /// Runs `work` on `queue` and blocks the calling simulated thread until it has run, like
    /// `DispatchQueue.sync`.
    ///
    /// ```swift
    /// let ran = scheduler.sync(on: mainQueue) { label.text = "done" }   // a job on main's thread
    /// scheduler.sync(on: cacheQueue, runsOnCallerWhenFree: true) { cache[key] = value }
    /// ```
    ///
    /// - Parameter runsOnCallerWhenFree: GCD's behaviour for every queue but the main queue
    ///   ("as a performance optimization, this function executes blocks on the current thread
    ///   whenever possible", Dispatch's `sync(execute:)`): `work` runs right here on the calling
    ///   thread, between two scheduling points, when `queue` is concurrent (its other items run
    ///   beside it) or a free serial queue (thawed, not the caller's own, its thread idle and no
    ///   job due ahead), which it then holds (its jobs wait, and a `sync` onto it from inside
    ///   `work` is a deadlock). A busy or frozen queue: the caller blocks until the block's turn
    ///   (a job of `queue` in its place hands the queue over) and then runs `work` on its own
    ///   thread, holding a serial queue as above, as GCD does (`isMainThread` inside a `sync`
    ///   from the main thread is true whether or not the queue was busy). When false (the main
    ///   queue), `work` is a job on `queue`'s own thread and the caller blocks.
    ///
    /// Contract: `sync` onto the caller's own serial queue (for example the main queue from the
    /// main thread), or any wait-for cycle it closes, is a deadlock: the run stops at once with
    /// ``deadlock`` set. Returns `true` once `work` has run; `false` when failing fast (outside a
    /// job, or while the run is unwound) or after a deadlock, without running it then.
    @discardableResult
    public func sync(on queue: QueueID, runsOnCallerWhenFree: Bool = false, _ work: @escaping () -> Void) -> Bool {
        // The controller unretained (a strong reference cost a retain and release per `sync`).
        guard let threadsCall else { _ = requireThreads("sync(on:)"); return false }
        return threadsCall.call { controller in
            sync(on: queue, runsOnCallerWhenFree: runsOnCallerWhenFree, work, controller: controller)
        }
    }

    /// ``sync(on:runsOnCallerWhenFree:_:)`` with the controller in hand.
    private func sync(
        on queue: QueueID, runsOnCallerWhenFree: Bool, _ work: @escaping () -> Void, controller: ThreadController
    ) -> Bool {
        guard let me = controller.currentID, !controller.isUnwinding else { return false }
        let index = core.index(of: queue)
        if runsOnCallerWhenFree {
            schedulingPoint()  // another thread may take the queue first; `me` runs again after it
            guard !controller.isUnwinding else { return false }
            if core.acceptsSyncOnCaller(queue: index, now: clock.now.microseconds) {
                controller.runSyncOnCaller(work, holding: index, caller: me, in: self)
                schedulingPoint()
                return true
            }
            // Busy (or frozen): wait for the block's turn, then run it here.
            guard controller.awaitSyncTurn(on: queue, index: index, caller: me, in: self) else { return false }
            controller.runSyncOnCaller(work, holding: index, caller: me, in: self, alreadyHeld: true)
            schedulingPoint()
            return true
        }
        // The block itself is the job: the controller wakes the caller when that job's work
        // returns (``ThreadController/finishSync(job:)``). A closure around the block that woke it
        // cost an allocation per `sync`.
        let job = async(on: queue, work)
        controller.state.syncWaiters.append(ThreadController.SyncWaiter(job: job.rawValue, thread: me))
        let ran = controller.blockCurrent(on: .sync(queue: index), in: self)
        if !ran { controller.state.forgetSyncWaiter(me) }  // a deadlock, or unwound: the job never runs
        return ran
    }

    /// Makes a lock for simulated threads.
    ///
    /// ```swift
    /// let lock = scheduler.makeLock(name: "cache")
    /// ```
    public func makeLock(name: String) -> SimulatedLock {
        SimulatedLock(name: name, scheduler: self)
    }

    /// Makes a counting semaphore for simulated threads, starting at `value`.
    ///
    /// ```swift
    /// let group = scheduler.makeSemaphore(name: "group", value: 0)
    /// ```
    public func makeSemaphore(name: String, value: Int) -> SimulatedSemaphore {
        SimulatedSemaphore(name: name, value: value, scheduler: self)
    }

    /// Why the run stopped, if it deadlocked (``run(until:maxSteps:)`` then returns `.idle`, and
    /// so does every later run).
    ///
    /// ```swift
    /// if let report = scheduler.deadlock { print(report) }
    /// ```
    public var deadlock: DeadlockReport? { threads?.deadlock }

    /// The label of the simulated thread running the caller (`"main"`, `"db"`, `"workers#2"`);
    /// nil outside a job or without controlled concurrency.
    ///
    /// ```swift
    /// precondition(scheduler.currentThreadLabel == "main", "UI work off the main thread")
    /// ```
    public var currentThreadLabel: String? { threads?.currentLabel }

    /// The number of the simulated thread running the caller; nil outside a job or without
    /// controlled concurrency.
    package var currentThreadID: Int? { threads?.currentID }

    /// The queue whose job the caller runs in: with controlled concurrency, the queue of the
    /// running simulated thread (nil outside a job); without it, the queue of the job running or
    /// last run (jobs run one at a time to completion, so inside a job it is that job's queue).
    ///
    /// ```swift
    /// let onMain = scheduler.currentQueue == mainQueueID
    /// ```
    public var currentQueue: QueueID? {
        if let threads { return threads.currentQueueIndex.map { QueueID(rawValue: $0) } }
        return QueueID(rawValue: core.taken.queue)
    }

    /// Preemptions taken so far (scheduling points where the scheduler chose again).
    package var preemptionCount: Int { threads?.preemptionCount ?? 0 }

    /// Baton handoffs between OS threads so far.
    package var threadHandoffCount: Int { threads?.handoffCount ?? 0 }

    private func requireThreads(_ api: String) -> ThreadController {
        guard let threads else {
            preconditionFailure("Scheduler.\(api) needs enableControlledConcurrency(_:pool:) first")
        }
        return threads
    }
}
