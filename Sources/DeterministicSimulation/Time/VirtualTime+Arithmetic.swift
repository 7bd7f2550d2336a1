extension VirtualTime {
    /// The time `duration` after `time` (saturating).
    ///
    /// ```swift
    /// let fireAt = clock.now + .milliseconds(500)
    /// ```
    @inlinable
    public static func + (time: VirtualTime, duration: VirtualDuration) -> VirtualTime {
        VirtualTime(microseconds: Saturating.add(time.microseconds, duration.microseconds))
    }

    /// The time `duration` before `time` (saturating).
    ///
    /// ```swift
    /// let windowStart = clock.now - .seconds(10)
    /// ```
    @inlinable
    public static func - (time: VirtualTime, duration: VirtualDuration) -> VirtualTime {
        VirtualTime(microseconds: Saturating.subtract(time.microseconds, duration.microseconds))
    }

    /// The span from `earlier` to `later` (negative if `later` is earlier; saturating).
    ///
    /// ```swift
    /// let waited = clock.now - enqueuedAt
    /// ```
    @inlinable
    public static func - (later: VirtualTime, earlier: VirtualTime) -> VirtualDuration {
        VirtualDuration(microseconds: Saturating.subtract(later.microseconds, earlier.microseconds))
    }

    /// Moves `time` forward by `duration` (saturating).
    @inlinable
    public static func += (time: inout VirtualTime, duration: VirtualDuration) {
        time = time + duration
    }
}

extension VirtualDuration {
    /// The sum of two durations (saturating).
    ///
    /// ```swift
    /// let total = budget + .seconds(5)
    /// ```
    @inlinable
    public static func + (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        VirtualDuration(microseconds: Saturating.add(lhs.microseconds, rhs.microseconds))
    }

    /// The difference of two durations (saturating).
    ///
    /// ```swift
    /// let remaining = budget - elapsed
    /// ```
    @inlinable
    public static func - (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        VirtualDuration(microseconds: Saturating.subtract(lhs.microseconds, rhs.microseconds))
    }

    /// `duration` repeated `factor` times (saturating).
    ///
    /// ```swift
    /// let backoff = VirtualDuration.seconds(1) * Int64(attempt)
    /// ```
    @inlinable
    public static func * (duration: VirtualDuration, factor: Int64) -> VirtualDuration {
        VirtualDuration(microseconds: Saturating.multiply(duration.microseconds, factor))
    }

    /// The opposite duration (saturating: `-Int64.min` gives `Int64.max`).
    @inlinable
    public static prefix func - (duration: VirtualDuration) -> VirtualDuration {
        VirtualDuration(microseconds: Saturating.subtract(0, duration.microseconds))
    }

    /// Adds `rhs` to `lhs` (saturating).
    @inlinable
    public static func += (lhs: inout VirtualDuration, rhs: VirtualDuration) {
        lhs = lhs + rhs
    }
}
