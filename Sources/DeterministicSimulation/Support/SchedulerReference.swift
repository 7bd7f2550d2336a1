/// A reference to a run's ``Scheduler`` for the objects a workload holds (its work queues, locks
/// and semaphores): it does not keep the scheduler alive, calls it without a retain or release,
/// and traps if it is used after the scheduler is gone. The contract of an `unowned` reference,
/// for a load and a branch per call.
///
/// ```swift
/// private let scheduler: SchedulerReference
/// init(scheduler: Scheduler) { self.scheduler = SchedulerReference(scheduler, owner: "SimulatedLock") }
/// scheduler.call { $0.schedulingPoint() }   // traps once the scheduler is gone
/// ```
///
/// Why it exists: a workload dispatches, locks and unlocks several times per trace event
/// (notes-import about four dispatches and two locks per event). A strong reference from these
/// objects would make a cycle through the scheduler's pending jobs; an `unowned` one costs an
/// atomic strong retain and release of the scheduler on every call (2% of notes-import's
/// instructions); an unchecked one alone would make a lock kept past its run undefined
/// behaviour. So this holds the scheduler through ``Unretained`` *and* its lifetime flag
/// strongly, and checks the flag before each call, in release builds too.
///
/// Contract: ``call(_:)`` runs `body` with the scheduler while it exists; once the scheduler's
/// `deinit` has begun it stops the process with a precondition failure naming the owner. The
/// scheduler stays alive during `body` (it is running the job that calls it). Confined to the
/// run's thread, like the scheduler.
package struct SchedulerReference {
    private let unretained: Unretained<Scheduler>
    /// Cleared by the scheduler's `deinit`; held strongly, so it outlives the scheduler.
    private let lifetime: SchedulerLifetime
    /// The type that holds this reference, for the trap's message.
    private let owner: StaticString

    /// A reference to `scheduler` on behalf of `owner` (a type name, for the trap's message).
    package init(_ scheduler: Scheduler, owner: StaticString) {
        unretained = Unretained(scheduler)
        lifetime = scheduler.lifetime
        self.owner = owner
    }

    /// Calls `body` with the scheduler; traps if it no longer exists.
    @inline(__always)
    package func call<Result>(_ body: (Scheduler) -> Result) -> Result {
        precondition(lifetime.isAlive, "\(owner) used after its Scheduler was deallocated")
        return unretained.call(body)
    }
}

/// Whether a ``Scheduler`` still exists: made by the scheduler, cleared in its `deinit` (before
/// its memory goes), and held strongly by every ``SchedulerReference`` to it.
final class SchedulerLifetime {
    /// True until the scheduler's `deinit` begins.
    var isAlive = true
}
