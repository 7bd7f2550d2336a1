/// How far a sleep's deadline lies on a run's virtual time: the one conversion from an instant
/// of a Swift `Clock` (what `Task.sleep(until:clock:)` hands an executor) to a virtual delay.
///
/// ```swift
/// switch VirtualDeadline.delay(until: instant, clock: ContinuousClock(), now: scheduler.now) {
/// case .exact(let delay): scheduler.asyncAfter(delay, on: tasks) { wake() }
/// case .approximate(let delay): recordEscape(); scheduler.asyncAfter(delay, on: tasks) { wake() }
/// }
/// ```
///
/// Contract:
/// - ``SimulationClock``: exact (its instants are virtual times).
/// - `ContinuousClock` and `SuspendingClock` where ``VirtualClocks/isSupported``: exact. Inside a
///   run their `now` is the run's virtual time, so `Task.sleep(for: d)` made its instant as
///   virtual now + d, and the delay is d (rounded to the microsecond, as
///   ``VirtualDuration/init(_:)``).
/// - Any other clock, or those clocks where the shim is not built: approximate. The delay is
///   `clock.now.duration(to: instant)` read now (rounded up to the microsecond), and the caller
///   reports the sleep as an escape, because real time passed between the two readings.
/// - A deadline in the past is due now (a zero delay): a sleep always suspends.
enum VirtualDeadline {
    /// A delay, and whether it is exact.
    enum Delay: Equatable {
        case exact(VirtualDuration)
        case approximate(VirtualDuration)
    }

    static func delay<C: Clock>(until instant: C.Instant, clock: C, now: VirtualTime) -> Delay {
        if let instant = instant as? SimulationClock.Instant {
            return .exact(max(.zero, instant.time - now))
        }
        let remaining = clock.now.duration(to: instant)
        let isVirtual = VirtualClocks.isSupported && (clock is ContinuousClock || clock is SuspendingClock)  // tidy: allow virtual inside runs
        guard let duration = remaining as? Swift.Duration else {
            return .approximate(.zero)  // a clock with its own duration type: due now
        }
        let rounded = VirtualDuration(duration)
        if isVirtual { return .exact(max(.zero, rounded)) }
        let roundedUp = rounded.duration < duration ? rounded + .init(microseconds: 1) : rounded
        return .approximate(max(.zero, roundedUp))
    }
}
