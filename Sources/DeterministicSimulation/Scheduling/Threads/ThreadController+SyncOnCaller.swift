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
    func runSyncOnCaller(_ work: () -> Void, holding queue: Int, caller: Int, in scheduler: Scheduler) {
        guard scheduler.core.queues[queue].width == 1 else {
            work()
            return
        }
        scheduler.core.occupyThread(ofQueue: queue)
        scheduler.core.candidateEpoch &+= 1  // the queue's due jobs stop being candidates
        state.setSyncHolder(caller, of: queue)
        // Happens-before: the block comes after the queue's last job and before its next one.
        scheduler.races?.call { $0.syncOnCallerStarts(in: caller + 1, queue: queue) }
        work()
        scheduler.races?.call { $0.syncOnCallerEnded(in: caller + 1, queue: queue) }
        state.setSyncHolder(nil, of: queue)
        scheduler.core.releaseThread(ofQueue: queue)
        scheduler.core.candidateEpoch &+= 1  // and may be again
    }

    /// The id of the thread running a `sync` block on its own stack while holding the serial
    /// queue at `queue`, if any.
    func syncHolder(of queue: Int) -> Int? {
        queue < state.syncHolders.count ? state.syncHolders[queue] : nil
    }
}

extension ThreadController.State {
    /// Records (or clears, with nil) the id of the thread holding a serial queue for a `sync`
    /// block.
    mutating func setSyncHolder(_ thread: Int?, of queue: Int) {
        while syncHolders.count <= queue { syncHolders.append(nil) }
        syncHolders[queue] = thread
    }
}
