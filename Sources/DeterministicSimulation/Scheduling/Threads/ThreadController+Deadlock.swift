extension ThreadController {
    /// The thread `thread` waits for, when its wait names one: a lock's holder, or the thread
    /// holding the serial queue a `sync` targets (one running a `sync` block of its own on it,
    /// else the one carrying the queue's job in progress).
    ///
    /// The scheduler is passed in (every `sync` and contended lock asks): reading the
    /// controller's `unowned(unsafe)` property retained and released it each time.
    private func waitedThread(of thread: Int, in scheduler: Scheduler) -> Int? {
        guard let wait = state.threads[thread].blockedWait else { return nil }
        switch wait {
        case .lock(let lock): return lock.holder
        case .semaphore: return nil
        case .plainMutex(let address): return plainLocks.holder(of: address)
        case .plainObject: return nil
        case .sync(let queue):
            guard scheduler.core.queues[queue].width == 1 else { return nil }
            if let holder = syncHolder(of: queue) { return holder }
            guard queue < state.queueThreads.count, let carrier = state.queueThreads[queue].first else { return nil }
            if case .idle = state.threads[carrier].state { return nil }
            return carrier
        }
    }

    /// Whether following what `start` waits for leads back to it (lock-order inversion, a
    /// `sync` onto the caller's own serial queue, a lock taken twice).
    func waitCycle(from start: Int, in scheduler: Scheduler) -> Bool {
        var next = waitedThread(of: start, in: scheduler)
        var hops = 0
        while let thread = next, hops <= state.threads.count {
            if thread == start { return true }
            next = waitedThread(of: thread, in: scheduler)
            hops += 1
        }
        return false
    }

    /// A deadlock when nothing can run or start or wake by a timer: some thread of an unfrozen
    /// queue waits without a timeout, no suspended thread is frozen, and no frozen queue holds a
    /// job (a frozen app could be thawed from outside, so that is not a deadlock).
    func globalDeadlock() -> DeadlockReport? {
        let queues = scheduler.core.queues
        var blocked = false
        for thread in state.threads where thread.isSuspended {
            if queues[thread.queue].isFrozen { return nil }
            if case .blocked = thread.state { blocked = true }
        }
        guard blocked, !queues.contains(where: { $0.isFrozen && !$0.heap.isEmpty }) else { return nil }
        return report()
    }

    /// The report naming every blocked thread and what it waits for.
    func report() -> DeadlockReport {
        var entries: [DeadlockReport.BlockedThread] = []
        for thread in state.threads {
            guard let wait = thread.blockedWait else { continue }
            entries.append(DeadlockReport.BlockedThread(thread: thread.label, waitsFor: describe(wait, of: thread.id)))
        }
        return DeadlockReport(threads: entries, time: scheduler.now)
    }

    private func describe(_ wait: SimulatedThread.Wait, of thread: Int) -> String {
        switch wait {
        case .lock(let lock):
            let holder = lock.holder.map { "held by \"\(state.threads[$0].label)\"" } ?? "(free)"
            return "lock \"\(lock.name)\" \(holder)\(lock.holder == thread ? " (itself)" : "")"
        case .semaphore(let semaphore):
            return "semaphore \"\(semaphore.name)\" (value \(semaphore.value))"
        case .plainMutex(let address):
            let holder = plainLocks.holder(of: address)
            let heldBy = holder.map { $0 == thread ? " held by \"\(state.threads[$0].label)\" (itself)" : " held by \"\(state.threads[$0].label)\"" }
            return "lock \"\(plainMutexName(address))\"\(heldBy ?? " (free)")"
        case .plainObject(let address):
            return "\(plainObjectName(address)) (a real one: only a signal or leave from the run's threads wakes it)"
        case .sync(let queue):
            let label = scheduler.core.queues[queue].label
            let holder = syncHolder(of: queue)
            let heldBy = holder.map { $0 == thread ? " (itself)" : " held by \"\(state.threads[$0].label)\"" }
            return "sync on queue \"\(label)\"\(heldBy ?? (waitedThread(of: thread, in: scheduler) == thread ? " (itself)" : ""))"
        }
    }
}

extension ThreadController {
    /// What a blocked thread carrying a job of the queue at `index` waits for, in a deadlock
    /// report's words; nil when none is blocked.
    func blockedWait(ofQueueAt index: Int) -> String? {
        for thread in state.threads where thread.queue == index {
            if let wait = thread.blockedWait { return describe(wait, of: thread.id) }
        }
        return nil
    }
}

extension Scheduler {
    /// What the simulated thread running a job of `queue` is blocked on, in a deadlock report's
    /// words (`DispatchSemaphore #1 (a real one: …)`, `lock "db" held by "p1.global#2"`), and how
    /// many jobs wait on that queue behind it; nil when no thread of the queue is blocked (or the
    /// run has no simulated threads). For messages, such as a watchdog kill's.
    ///
    /// ```swift
    /// if let (wait, behind) = scheduler.blockedWait(on: mainQueue) { print("main waited for \(wait); \(behind) jobs behind it") }
    /// ```
    package func blockedWait(on queue: QueueID) -> (wait: String, jobsBehind: Int)? {
        guard let wait = threadsCall?.call({ $0.blockedWait(ofQueueAt: queue.rawValue) }) else { return nil }
        return (wait, core.queues[queue.rawValue].heap.count)
    }
}
