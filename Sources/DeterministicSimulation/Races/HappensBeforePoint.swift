/// A happens-before point of a synchronising construct built on the engine's queues, for the
/// data-race detector: a context that ``release(in:)``s into it hands its past on, and a later
/// ``acquire(in:)`` is ordered after every release so far. The simulator's concurrent
/// `DispatchQueue` orders its barrier blocks with two of them (a barrier block runs after every
/// block sent before it, and every block sent after it runs after it).
///
/// ```swift
/// let finished = HappensBeforePoint()
/// finished.release(in: scheduler)   // a block ends: its writes are handed on
/// finished.acquire(in: scheduler)   // a barrier starts: ordered after every block that ended
/// ```
///
/// Contract: without race detection both calls do nothing; neither draws nor is a scheduling
/// point. Touched only by the thread holding the run's baton.
package final class HappensBeforePoint {
    private var clock = VectorClock()

    package init() {}

    /// The running context (a simulated thread's job, or the loop) hands its past to the point.
    package func release(in scheduler: Scheduler) {
        guard let races = scheduler.races else { return }
        let index = scheduler.raceContext
        races.call { $0.release(from: index, into: &clock) }
    }

    /// The running context is ordered after every release into the point so far.
    package func acquire(in scheduler: Scheduler) {
        guard let races = scheduler.races else { return }
        let index = scheduler.raceContext
        races.call { $0.acquire(clock, into: index) }
    }
}
