public import BackgroundTaskKit
import DeterministicSimulation

/// A ``WorkQueue`` backed by one queue of the run's ``Scheduler``.
///
/// ```swift
/// app.mainQueue.asyncAfter(.seconds(2)) { finishUpload() }   // runs at now + 2 s virtual time
/// ```
///
/// Contract: work runs on the simulated queue, in virtual time, on the run's thread. The queue
/// belongs to one process: when the process is suspended its queues are frozen, and when it dies
/// they stay frozen forever, so no code of a dead process ever runs (B1.1, B3).
public final class SimulatedWorkQueue: WorkQueue, @unchecked Sendable {
    // @unchecked: a run is confined to one thread; the simulator never shares a run's objects.
    public let label: String
    let id: QueueID
    /// Called without a retain (an `unowned` reference cost an atomic retain and release of the
    /// scheduler per dispatch); traps if the queue is used after its run's scheduler is gone.
    private let scheduler: SchedulerReference
    /// The main queue's blocks always run on the main thread; every other queue runs a `sync`
    /// block on the caller's thread when it is free (see ``sync(_:)``).
    let isMainQueue: Bool

    init(label: String, id: QueueID, scheduler: Scheduler, isMainQueue: Bool = false) {
        self.label = label
        self.id = id
        self.scheduler = SchedulerReference(scheduler, owner: "SimulatedWorkQueue")
        self.isMainQueue = isMainQueue
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        scheduler.call { scheduler in
            scheduler.schedulingPoint()
            scheduler.async(on: id, work)
            scheduler.schedulingPoint()
        }
    }

    public func asyncAfter(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        scheduler.call { scheduler in
            scheduler.schedulingPoint()
            scheduler.asyncAfter(VirtualDuration(delay), on: id, work)
            scheduler.schedulingPoint()
        }
    }

    /// Runs `work` on this queue and waits until it has run, like `DispatchQueue.sync`.
    ///
    /// ```swift
    /// let cached = cacheQueue.sync { cache[key] }
    /// ```
    ///
    /// Contract: with threads (the default), as GCD does: onto the main queue, `work` runs on the
    /// main thread and the caller blocks until it has; onto the global queue, or a serial queue
    /// that is free (no job of it in progress or due ahead), `work` runs right away on the calling
    /// thread, and a serial queue is held meanwhile (Dispatch's `sync(execute:)`: "executes blocks
    /// on the current thread whenever possible", the main queue excepted), so `isMainThread`
    /// inside it is the caller's; onto a busy serial queue the caller blocks until `work`'s turn
    /// and then runs it on the calling thread too, as GCD does. A `sync` onto the caller's own
    /// serial queue (the main queue from the main thread, say, or a queue whose `sync` block is
    /// running), or any wait-for cycle it closes, stops the run with the `no-deadlock` violation.
    /// Without threads (`concurrency` off) `work` runs inline. When the scheduler cannot run it (outside
    /// a job, or once the run stopped and unwinds its threads at teardown, where nothing is
    /// recorded) `work` runs inline too (as the main thread when the caller is main), so that
    /// `sync` always returns `work`'s result; a caller whose block is in progress on another
    /// thread then waits for its end, or is given up at the run's end.
    public func sync<Result, Failure: Error>(_ work: () throws(Failure) -> Result) throws(Failure) -> Result {
        // Whether the caller is main: a block that runs in place at the run's end (below) runs as
        // its caller's thread did. Read in the same call as the check (one call per `sync`).
        let (threads, callerIsMain) = scheduler.call { ($0.hasControlledConcurrency, $0.isOnSimulatedMainThread) }
        guard threads else { return try work() }
        // Captured locals, not a generic box class: the job writes them before the caller
        // resumes (one simulated thread at a time). Destroying an instance of a generic class
        // looked up `Optional<Result>`'s metadata in the runtime's cache on every call: 3% of
        // chat-outbox's instructions, whose sends sync onto the main queue.
        let outcome: Swift.Result<Result, Failure>? = withoutActuallyEscaping(work) { work in
            // One captured variable (one box) for both: the block to run, cleared before
            // returning so that a job the scheduler dropped unrun (a deadlock) never calls `work`
            // after it has gone, and what it returned. Two variables were two allocations per
            // `sync`.
            var call = SyncCall<Result, Failure>(pending: work)
            let ran = scheduler.call { scheduler in
                scheduler.sync(on: id, runsOnCallerWhenFree: !isMainQueue) {
                    guard let run = call.pending else { return }
                    call.isRunning = true
                    do throws(Failure) { call.outcome = .success(try run()) } catch { call.outcome = .failure(error) }
                    call.isRunning = false
                }
            }
            // The run stopped (a deadlock) while another thread runs the block, suspended in it:
            // `work` must not outlive this call, so the caller waits for the block's end, and
            // the run's end gives it up if that never comes (each poll then counts as a wait
            // that returned at once). Returning trapped ("closure argument was escaped in
            // withoutActuallyEscaping block", probe 8), a crash blamed on the app.
            while !ran, call.isRunning { scheduler.call { $0.pollPoint() } }
            let outcome = call.finish()
            return ran ? outcome : nil
        }
        if let outcome { return try outcome.get() }
        // Not run by the scheduler (the run stopped while the caller waited, and unwinds it):
        // here, as the main thread when the caller was main, or its main-actor checks trap.
        guard callerIsMain else { return try work() }
        return try scheduler.call { scheduler in
            scheduler.runInPlaceOfMainThread { Swift.Result { () throws(Failure) -> Result in try work() } }
        }.get()
    }
}

/// What ``SimulatedWorkQueue/sync(_:)`` shares with its block: the block while it may still run,
/// then what it returned.
private struct SyncCall<Result, Failure: Error> {
    var pending: (() throws(Failure) -> Result)?
    var outcome: Swift.Result<Result, Failure>?
    /// Whether the block is running (on the queue's thread: the main queue's).
    var isRunning = false

    /// Clears the block and takes what it returned, in one access (each access to a captured
    /// variable is checked for exclusivity at run time).
    mutating func finish() -> Swift.Result<Result, Failure>? {
        pending = nil
        return outcome.take()
    }
}
