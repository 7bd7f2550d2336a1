/// One simulated thread: the main thread, a serial queue's thread, or one slot of a concurrent
/// queue. It carries at most one job at a time; while that job is suspended the thread is bound
/// to the OS thread (``worker``) whose stack holds it.
///
/// ```swift
/// // made by ThreadController.thread(forQueue:slot:) the first time the queue starts a job
/// thread.state = .blocked(.lock(name: "cache", holder: other))
/// ```
///
/// Invariant: ``worker`` is set from its job's first suspension until that job ends (a job that
/// never suspends runs inline on the loop's OS thread and is never bound to it); a thread that
/// is not `.idle` or `.running` has a ``worker``; at most one thread of a run is `.running`.
final class SimulatedThread {
    /// What a blocked thread waits for (for wake-ups and deadlock reports).
    enum Wait {
        case lock(SimulatedLock)
        case semaphore(SimulatedSemaphore)
        /// A `sync` onto a queue (by index), waiting for the job it scheduled there.
        case sync(queue: Int)
    }

    enum State {
        /// No job in progress.
        case idle
        /// Its job holds the baton.
        case running
        /// Suspended at a scheduling point; may be resumed.
        case runnable
        /// Off the CPU until the time (a drawn preemption delay or ``Scheduler/block(for:)``).
        case sleeping(until: Int64)
        /// Waiting for another thread.
        case blocked(Wait)
    }

    /// Creation order in the run; ties between PCT priorities go to the lower id.
    let id: Int
    /// The queue whose jobs it runs, and its slot (0 for serial queues).
    let queue: Int
    let slot: Int
    /// The queue's label, with `#slot` (from 1) for a concurrent queue.
    let label: String
    var state = State.idle
    /// The OS thread carrying its job in progress, once that job has been suspended.
    var worker: PoolWorker?
    /// The job in progress, saved at its first suspension (handed back to the core when it
    /// finishes).
    var taken = SchedulerCore.TakenJob()
    /// PCT priority: higher runs first; change points give negative values.
    var priority: Int64 = 0

    init(id: Int, queue: Int, slot: Int, label: String) {
        self.id = id
        self.queue = queue
        self.slot = slot
        self.label = label
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
