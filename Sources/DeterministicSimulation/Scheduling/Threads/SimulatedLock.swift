/// A mutual-exclusion lock between simulated threads: a thread that finds it held blocks (other
/// threads and virtual time go on) until the holder unlocks it.
///
/// ```swift
/// let cache = scheduler.makeLock(name: "cache")
/// scheduler.async(on: workers) {
///     cache.withLock { entries[key] = value }
/// }
/// ```
///
/// Contract: `lock()` is a scheduling point before it takes effect, `unlock()` one after;
/// waiters get the lock in the order they blocked (FIFO). Locking a lock the thread already
/// holds is a deadlock, reported as such. Both return at once, doing nothing, outside a job of a
/// scheduler with controlled concurrency and while its run is being unwound (fail fast).
/// Unlocking a lock held by another thread is a programming error (it traps).
public final class SimulatedLock: @unchecked Sendable {
    // @unchecked: only the simulated thread holding the run's baton touches it (one at a time,
    // each handoff a happens-before edge), so it can be captured by the app's @Sendable closures.
    /// The name deadlock reports use.
    public let name: String
    let scheduler: SchedulerReference
    /// Who holds it, who waits, and what the holders did, in one place. Unchecked exclusivity:
    /// only the baton holder touches it, and no access spans a call that could reach it again;
    /// its dynamic checks were about 1% of a run that takes a lock around every statement, and
    /// with race detection on the race clock's checks were two of every `lock`/`unlock`'s
    /// costliest calls.
    struct State {
        /// The id of the thread holding it, if any.
        var holder: Int?
        /// The ids of the threads blocked in ``lock()``, first come first served.
        var waiters: [Int] = []
        /// With race detection on: what every holder so far had done when it unlocked (the next
        /// `lock` comes after it). Empty otherwise, and never touched.
        var raceClock = VectorClock()
    }

    @exclusivity(unchecked) var state = State()

    /// The id of the thread holding it, if any.
    var holder: Int? { state.holder }

    init(name: String, scheduler: Scheduler) {
        self.name = name
        self.scheduler = SchedulerReference(scheduler, owner: "SimulatedLock")
    }

    /// Whether a thread holds the lock.
    public var isLocked: Bool { state.holder != nil }

    /// Takes the lock, blocking the calling simulated thread while another holds it.
    ///
    /// ```swift
    /// lock.lock(); defer { lock.unlock() }
    /// ```
    public func lock() {
        // The scheduler and its controller unretained: a lock is taken around every statement
        // of some workloads.
        scheduler.call { scheduler in
            scheduler.schedulingPoint()
            scheduler.threadsCall?.call { controller in
                guard let me = controller.currentID, !controller.isUnwinding else { return }
                guard state.holder != nil else {
                    state.holder = me
                    controller.state.threads[me].heldLocks += 1
                    scheduler.races?.call { $0.acquire(state.raceClock, into: me + 1) }
                    return
                }
                state.waiters.append(me)
                if controller.blockCurrent(on: .lock(self), in: scheduler) {
                    scheduler.races?.call { $0.acquire(state.raceClock, into: me + 1) }  // handed over by `unlock`
                } else if let index = state.waiters.firstIndex(of: me) {
                    state.waiters.remove(at: index)  // gave up (unwound): no `unlock` may hand it over now
                }
            }
        }
    }

    /// Releases the lock, handing it to the first waiter (which becomes runnable).
    ///
    /// ```swift
    /// lock.unlock()
    /// ```
    public func unlock() {
        scheduler.call { scheduler in unlock(in: scheduler) }
    }

    private func unlock(in scheduler: Scheduler) {
        let unlocked: Bool = scheduler.threadsCall?.call { controller in
            // Unwound at teardown, nothing is given back. A dead process's thread unwound mid-run
            // (inert: ``Scheduler/releaseDeadQueues(_:)``) gives back what it holds since before
            // (its `lock()` took nothing while inert): the next process must be able to take it.
            guard let me = controller.currentID,
                !controller.isUnwinding || (scheduler.inertCode && state.holder == me)
            else { return false }
            precondition(
                state.holder == me,
                "SimulatedLock \"\(name)\" unlocked by \"\(controller.currentLabel ?? "")\", which does not hold it")
            scheduler.races?.call { $0.release(from: me + 1, into: &state.raceClock) }
            controller.state.threads[me].heldLocks -= 1
            if state.waiters.isEmpty {
                state.holder = nil
            } else {
                let next = state.waiters.removeFirst()
                state.holder = next
                controller.state.threads[next].heldLocks += 1
                controller.wake(next)
            }
            return true
        } ?? false
        guard unlocked else { return }
        scheduler.schedulingPoint()
    }

    /// Runs `body` holding the lock.
    ///
    /// ```swift
    /// let count = lock.withLock { counter += 1; return counter }
    /// ```
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
