/// One simulated thread: the main thread, a serial queue's thread, or one slot of a concurrent
/// queue. It carries at most one job at a time; while that job is suspended the thread is bound
/// to the OS thread (``worker``) whose stack holds it.
///
/// A value: it lives in its controller's ``ThreadController/State/threads``, at the index of its
/// ``id``, and everything else names it by that id (decisions, the suspended list,
/// a lock's holder and waiters). As a class, every one of those names was a reference count to
/// keep: about six retains and six releases per trace event of a run that syncs onto main.
///
/// ```swift
/// // made by ThreadController.makeThread(queue:) the first time the queue starts a job
/// state.threads[id].block(on: .lock(cache))   // state .blocked, wait .lock(cache)
/// ```
///
/// Invariant: ``worker`` is set from its job's first suspension until that job ends (a job that
/// never suspends runs inline on the loop's OS thread and is never bound to it); a thread that
/// is not `.idle` or `.running` has a ``worker``; at most one thread of a run is `.running`.
struct SimulatedThread {
    /// What a blocked thread waits for (for wake-ups and deadlock reports).
    enum Wait {
        case lock(SimulatedLock)
        case semaphore(SimulatedSemaphore)
        /// A `sync` onto a queue (by index), waiting for the job it scheduled there.
        case sync(queue: Int)
        /// A real mutex app code locks, held by a simulated thread (by its address: ``PlainLocks``).
        case plainMutex(address: UInt)
        /// A real dispatch semaphore or group app code waits on with no deadline (by its address:
        /// ``PlainLocks``).
        case plainObject(address: UInt)
    }

    /// Plain values only (what a blocked thread waits for is ``wait``), so reading a thread's
    /// state in a decision copies no reference: with the wait as a payload, every read of a
    /// suspended thread's state retained and released it.
    enum State {
        /// No job in progress.
        case idle
        /// Its job holds the baton.
        case running
        /// Suspended at a scheduling point; may be resumed.
        case runnable
        /// Off the CPU until the time (a drawn preemption delay or ``Scheduler/block(for:)``).
        case sleeping(until: Int64)
        /// Waiting for another thread, for ``wait``.
        case blocked
    }

    /// Creation order in the run, and the thread's index in its controller's threads; ties
    /// between PCT priorities go to the lower id.
    let id: Int
    /// The queue whose jobs it runs, and its slot (0 for serial queues).
    let queue: Int
    let slot: Int
    /// The queue's label, with `#slot` (from 1) for a concurrent queue.
    let label: String
    var state = State.idle
    /// Whether its `.sleeping` is a preemption delay the scheduler drew (not a sleep of its own
    /// code): waking it is not time the app waited for (``BusyLoop``).
    var isDelayed = false
    /// What it waits for while `.blocked` (set by ``block(on:)``; nil otherwise).
    private(set) var wait: Wait?
    /// The OS thread carrying its job in progress, once that job has been suspended. Unretained:
    /// the pool keeps its workers (and the controller its driver) for longer than any job, and
    /// a strong reference cost a retain and a release per suspension and per resumption.
    var worker: Unretained<PoolWorker>?
    /// The job in progress, saved at its first suspension (handed back to the core when it
    /// finishes).
    var taken = SchedulerCore.TakenJob()
    /// How many ``Scheduler/withPreemptionDeferred(_:)`` calls its job is inside: while above 0,
    /// a point that would preempt it is postponed.
    var preemptionDeferrals = 0
    /// How many ``SimulatedLock``s it holds, and whether its job is running an actor's turn:
    /// what a dead process's thread may hold that the next process needs
    /// (``Scheduler/releaseDeadQueues(_:)``).
    var heldLocks = 0
    var runsActorTurn = false
    /// Waits its job made while the run's end unwound it, each returning at once
    /// (``ThreadController/noteUnwindingWait(in:)``).
    var unwindingWaits = 0

    init(id: Int, queue: Int, slot: Int, label: String) {
        self.id = id
        self.queue = queue
        self.slot = slot
        self.label = label
    }

    /// Marks it blocked, waiting for `wait`.
    mutating func block(on wait: Wait) {
        self.wait = wait
        state = .blocked
    }

    /// Makes it runnable (a blocked thread's wait is over).
    mutating func makeRunnable() {
        state = .runnable
        if wait != nil { wait = nil }
    }

    /// Makes it the running thread (a blocked thread resumed to be unwound stops waiting too).
    mutating func markRunning() {
        state = .running
        if wait != nil { wait = nil }
    }

    /// What it waits for, if it is blocked.
    var blockedWait: Wait? {
        guard case .blocked = state else { return nil }
        return wait
    }

    /// Whether the scheduler may resume it now.
    var isRunnable: Bool {
        if case .runnable = state { return true }
        return false
    }

    /// Whether its job is in progress but off the CPU.
    var isSuspended: Bool {
        switch state {
        case .idle, .running: false
        case .runnable, .sleeping, .blocked: true
        }
    }
}
