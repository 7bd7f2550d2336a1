extension ThreadController {
    /// Runs a `sync` block on the calling thread, holding a serial queue's thread meanwhile, as
    /// GCD does for every queue but the main queue (``Scheduler/sync(on:runsOnCallerWhenFree:_:)``).
    ///
    /// ```swift
    /// if core.acceptsSyncOnCaller(queue: index, now: now) {
    ///     controller.runSyncOnCaller(work, holding: index, caller: me, in: scheduler)
    /// }
    /// ```
    ///
    /// Contract: while `work` runs on a serial queue, the queue offers no job (its thread is
    /// taken) and names `caller` as its holder, so a `sync` onto it waits for `caller` (a
    /// deadlock when `caller` is the one waiting: see ``waitCycle(from:in:)``). A concurrent queue
    /// is not held: its items go on running beside the block, which takes none of its threads.
    /// `work` may suspend the caller like any other code of its job; a serial queue stays held
    /// meanwhile.
    /// `alreadyHeld`: the queue was taken for the caller by ``awaitSyncTurn(on:index:caller:in:)``.
    func runSyncOnCaller(_ work: () -> Void, holding queue: Int, caller: Int, in scheduler: Scheduler,
                         alreadyHeld: Bool = false) {
        guard scheduler.core.queues[queue].width == 1 else {
            work()
            return
        }
        if !alreadyHeld {
            scheduler.core.occupyThread(ofQueue: queue)
            scheduler.core.candidateEpoch &+= 1  // the queue's due jobs stop being candidates
            state.setSyncHolder(caller, of: queue)
        }
        // Happens-before: the block comes after the queue's last job and before its next one.
        scheduler.races?.call { $0.syncOnCallerStarts(in: caller + 1, queue: queue) }
        work()
        scheduler.races?.call { $0.syncOnCallerEnded(in: caller + 1, queue: queue) }
        state.setSyncHolder(nil, of: queue)
        scheduler.core.releaseThread(ofQueue: queue)
        scheduler.core.candidateEpoch &+= 1  // and may be again
    }

    /// Blocks the calling thread `caller` until its `sync` block's turn on the busy (or frozen)
    /// queue `queue` (at `index`): a job of the queue in the block's place takes the queue for
    /// the caller when it runs (a serial queue stays held past that job's end, naming `caller`
    /// as its holder) and wakes it, so that the caller runs the block on its own thread, as GCD
    /// does. Returns whether the turn came; when the wait ends otherwise (a deadlock, or the run
    /// unwound) a queue taken for the caller is given back.
    ///
    /// ```swift
    /// if controller.awaitSyncTurn(on: queue, index: index, caller: me, in: scheduler) {
    ///     controller.runSyncOnCaller(work, holding: index, caller: me, in: scheduler, alreadyHeld: true)
    /// }
    /// ```
    ///
    /// Contract: while it waits, `caller` waits for the queue (a `sync` wait: its holder or the
    /// thread carrying its job in progress, for deadlock cycles). Happens-before: the queue's
    /// earlier jobs, then the turn's job, then the caller.
    func awaitSyncTurn(on queue: QueueID, index: Int, caller: Int, in scheduler: Scheduler) -> Bool {
        let serial = scheduler.core.queues[index].width == 1
        let turn = scheduler.async(on: queue) { [unowned scheduler, unowned self] in
            // Held past this job's end for the caller, who is woken when it returns (if it still
            // waits: a caller that gave up is not handed a queue).
            guard serial, case .sync(index) = self.state.threads[caller].blockedWait else { return }
            scheduler.core.occupyThread(ofQueue: index)
            scheduler.core.candidateEpoch &+= 1
            self.state.setSyncHolder(caller, of: index)
        }
        state.syncWaiters.append(SyncWaiter(job: turn.rawValue, thread: caller))
        guard blockCurrent(on: .sync(queue: index), in: scheduler) else {
            state.forgetSyncWaiter(caller)
            if serial, syncHolder(of: index) == caller {
                state.setSyncHolder(nil, of: index)
                scheduler.core.releaseThread(ofQueue: index)
                scheduler.core.candidateEpoch &+= 1
            }
            return false
        }
        return true
    }

    /// A thread blocked in a `sync` whose block is a job on the target queue
    /// (``Scheduler/sync(on:runsOnCallerWhenFree:_:)``): woken when that job's work returns.
    struct SyncWaiter {
        /// The job's number.
        let job: UInt64
        /// The blocked thread's id.
        let thread: Int
    }

    /// Called when the work of the job numbered `job` has returned, on its thread (the current
    /// one): if it was a `sync` block, its caller comes after it (a happens-before edge for the
    /// race detector) and is woken. Cheap when no `sync` waits, which is most jobs.
    @inline(__always)
    func finishSync(job: UInt64, in scheduler: Scheduler) {
        guard !state.syncWaiters.isEmpty, let caller = state.takeSyncWaiter(job: job) else { return }
        // Happens-before: the block's end, then the caller's future.
        if let races = scheduler.races, let block = state.current {
            races.call { $0.handBack(from: block + 1, toThread: caller) }
        }
        if case .sync = state.threads[caller].blockedWait { wake(caller) }
    }

    /// The id of the thread running a `sync` block on its own stack while holding the serial
    /// queue at `queue`, if any.
    func syncHolder(of queue: Int) -> Int? {
        queue < state.syncHolders.count ? state.syncHolders[queue] : nil
    }
}

extension ThreadController.State {
    /// Removes and returns the thread waiting for the `sync` job numbered `job`, if any.
    mutating func takeSyncWaiter(job: UInt64) -> Int? {
        guard let index = syncWaiters.firstIndex(where: { $0.job == job }) else { return nil }
        return syncWaiters.remove(at: index).thread
    }

    /// Forgets the `sync` a thread waited for when it returns without its block having run.
    mutating func forgetSyncWaiter(_ thread: Int) {
        syncWaiters.removeAll { $0.thread == thread }
    }

    /// Records (or clears, with nil) the id of the thread holding a serial queue for a `sync`
    /// block.
    mutating func setSyncHolder(_ thread: Int?, of queue: Int) {
        while syncHolders.count <= queue { syncHolders.append(nil) }
        syncHolders[queue] = thread
    }
}
