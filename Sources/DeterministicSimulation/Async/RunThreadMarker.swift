import SimulationRuntime

/// Which run, if any, the calling OS thread is executing a job of: the one fact that tells the
/// async layer whether a piece of Swift concurrency belongs to a simulation, and to which one,
/// and tells the process's clocks to answer the run's virtual time (``VirtualClocks``).
///
/// ```swift
/// let previous = RunThreadMarker.enter(scheduler)   // Scheduler.run does this
/// defer { RunThreadMarker.leave(restoring: previous) }
/// RunThreadMarker.current === scheduler              // true inside any job of the run
/// ```
///
/// Why a per-OS-thread mark rather than a task-local value: the places that ask are the
/// process's executors (``ProcessExecutors``) and clocks (no task context to read), plain
/// callback jobs (no task at all) and pool threads of controlled concurrency (a task-local bound
/// on the driver thread does not reach them). Parallel runs in one process each mark only their
/// own threads.
///
/// Contract: ``Scheduler`` marks the thread for the duration of `run`, `runUntilIdle` and `step`
/// (the driver) and of each loop on a pool thread (controlled concurrency); a suspended job
/// resumes on the OS thread that started it, which is still marked. The mark is an unretained
/// reference in a C thread-local variable (SimulationRuntimeShims, through the runtime room's
/// `ThreadMark`), shared with the clock shim:
/// it is only read while the marked run is executing on this thread, so the scheduler is alive.
/// Cost: one thread-local load and store per mark.
enum RunThreadMarker {
    /// The scheduler whose job the calling thread is running; nil outside any run.
    static var current: Scheduler? { ThreadMark.current(as: Scheduler.self) }

    /// Marks the calling thread as running `scheduler`'s jobs (and hands the shim the run's
    /// ``PlainLocks`` table, when it has simulated threads); returns the previous mark, for
    /// ``leave(restoring:)``.
    @inline(__always)
    static func enter(_ scheduler: Scheduler) -> ThreadMark.Previous {
        ThreadMark.enter(scheduler, locks: scheduler.threadsCall?.call { $0.plainLocks.table },
                         accesses: scheduler.plainAccesses)
    }

    /// Restores the mark ``enter(_:)`` replaced.
    @inline(__always)
    static func leave(restoring previous: ThreadMark.Previous) {
        ThreadMark.leave(restoring: previous)
    }
}

extension RunThreadMarker {
    /// Whether the calling thread is running `scheduler`'s job (a pointer comparison, no retain).
    @inline(__always)
    static func isMarked(_ scheduler: Scheduler) -> Bool {
        ThreadMark.isMarked(scheduler)
    }
}
