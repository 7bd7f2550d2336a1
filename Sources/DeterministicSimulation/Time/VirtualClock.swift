/// The simulated clock of one run: time moves only when told.
///
/// ```swift
/// let clock = VirtualClock()
/// clock.advance(by: .seconds(5))
/// clock.now            // 5.000000s
/// clock.advance(to: .seconds(3))
/// clock.now            // still 5.000000s: the clock never goes back
/// ```
///
/// Contract: ``now`` never decreases. Usually the ``Scheduler`` moves it (to each job's time); a
/// test or simulator may also move it directly. Not thread-safe: one run, one thread.
public final class VirtualClock {
    /// The current simulated time. Its only state. Unchecked exclusivity: it is read several
    /// times per event and the dynamic check cost more than the read; safe because a clock is
    /// confined to one thread and every access is a plain load or store.
    @exclusivity(unchecked) public private(set) var now: VirtualTime

    /// Creates a clock showing `now`.
    ///
    /// ```swift
    /// let clock = VirtualClock(now: .seconds(100))
    /// ```
    ///
    /// - Parameter now: the starting time, `.zero` by default.
    public init(now: VirtualTime = .zero) {
        self.now = now
    }

    /// Moves the clock forward by `duration`; a zero or negative duration does nothing.
    ///
    /// ```swift
    /// clock.advance(by: .milliseconds(16))
    /// ```
    ///
    /// - Parameter duration: how far to move (saturating at the latest representable time).
    public func advance(by duration: VirtualDuration) {
        if duration.microseconds > 0 { now = now + duration }
    }

    /// Moves the clock to `time`; a time not later than ``now`` does nothing.
    ///
    /// ```swift
    /// clock.advance(to: .seconds(30))
    /// ```
    ///
    /// - Parameter time: the new time.
    public func advance(to time: VirtualTime) {
        if time > now { now = time }
    }
}
