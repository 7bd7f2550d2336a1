/// A counting semaphore between simulated threads (also a group wait: start at 0, `signal()`
/// once per finished member, `wait()` once per member).
///
/// ```swift
/// let done = scheduler.makeSemaphore(name: "uploads", value: 0)
/// scheduler.async(on: workers) { upload(); done.signal() }
/// scheduler.async(on: background) { done.wait(); report() }   // blocks only this thread
/// ```
///
/// Contract: `wait()` is a scheduling point before it takes effect and `signal()` one after;
/// a `wait()` that finds the value 0 blocks until a `signal()`, and blocked waiters are served
/// first come first served. `wait(timeout:)` also gives up once its virtual time has passed
/// (off the CPU meanwhile, never part of a deadlock). All return at once outside a job of a
/// scheduler with controlled concurrency and while its run is being unwound; a wait then
/// returns `false`.
public final class SimulatedSemaphore: @unchecked Sendable {
    // @unchecked: only the simulated thread holding the run's baton touches it (one at a time,
    // each handoff a happens-before edge), so it can be captured by the app's @Sendable closures.
    /// The name deadlock reports use.
    public let name: String
    let scheduler: SchedulerReference
    /// Units available.
    public private(set) var value: Int
    /// The ids of the threads blocked in ``wait()``.
    var waiters: [Int] = []
    /// With race detection on: what every `signal` so far had done (a `wait` that takes a unit
    /// comes after it; TSan treats semaphores the same way). Empty otherwise.
    var raceClock = VectorClock()

    init(name: String, value: Int, scheduler: Scheduler) {
        self.name = name
        self.value = max(0, value)
        self.scheduler = SchedulerReference(scheduler, owner: "SimulatedSemaphore")
    }

    /// Takes one unit, blocking the calling simulated thread until one is available.
    ///
    /// ```swift
    /// if !semaphore.wait() { return }   // the run was torn down or deadlocked
    /// ```
    ///
    /// - Returns: `true` once a unit was taken; `false` when failing fast.
    @discardableResult
    public func wait() -> Bool {
        scheduler.call { scheduler in wait(in: scheduler, timeout: nil) }
    }

    /// Takes one unit, blocking the calling simulated thread until one is available or `timeout`
    /// of virtual time has passed, whichever comes first (`DispatchSemaphore.wait(timeout:)`).
    ///
    /// ```swift
    /// // In an expiration handler: give the upload two seconds to finish, then cancel it.
    /// if !uploadDone.wait(timeout: .seconds(2)) { upload.cancel() }
    /// ```
    ///
    /// - Returns: `true` once a unit was taken; `false` when the time passed first (or when
    ///   failing fast). A timed-out wait takes no unit and orders nothing after any `signal`.
    @discardableResult
    public func wait(timeout: VirtualDuration) -> Bool {
        scheduler.call { scheduler in wait(in: scheduler, timeout: timeout) }
    }

    /// Takes a unit that is there, else waits: blocked until a `signal` (`timeout` nil), or
    /// asleep until the deadline, woken early by a `signal` that takes it off ``waiters`` (so a
    /// waiter still listed when it wakes timed out).
    private func wait(in scheduler: Scheduler, timeout: VirtualDuration?) -> Bool {
        scheduler.schedulingPoint()
        guard let controller = scheduler.threads, let me = controller.currentID, !controller.isUnwinding else {
            return false
        }
        if value > 0 {
            value -= 1
        } else if let timeout {
            guard timeout.microseconds > 0 else { return false }
            waiters.append(me)
            controller.sleepCurrent(microseconds: timeout.microseconds, in: scheduler)
            if let index = waiters.firstIndex(of: me) {
                waiters.remove(at: index)
                return false
            }
        } else {
            waiters.append(me)
            guard controller.blockCurrent(on: .semaphore(self), in: scheduler) else { return false }
        }
        // Taken, or handed over by a `signal`: ordered after every signal so far.
        scheduler.races?.call { $0.acquire(raceClock, into: me + 1) }
        return true
    }

    /// Gives one unit: to the first blocked waiter (which becomes runnable), or to the count.
    ///
    /// ```swift
    /// semaphore.signal()
    /// ```
    public func signal() {
        scheduler.call { scheduler in signal(in: scheduler) }
    }

    private func signal(in scheduler: Scheduler) {
        guard let controller = scheduler.threads, !controller.isUnwinding else { return }
        if let races = scheduler.races {
            let index = scheduler.raceContext
            races.call { $0.release(from: index, into: &raceClock) }
        }
        if waiters.isEmpty {
            value += 1
        } else {
            controller.wake(waiters.removeFirst())
        }
        scheduler.schedulingPoint()
    }
}
