/// A span of simulated time in whole microseconds (possibly negative).
///
/// ```swift
/// let expiryLead = VirtualDuration.seconds(5)
/// let jitter = VirtualDuration.milliseconds(Int64(choices.int(in: 0...250)))
/// scheduler.asyncAfter(expiryLead + jitter, on: scheduler.mainQueue) { expire() }
/// ```
///
/// Contract: ordered by ``microseconds``; arithmetic saturates at `Int64.min`/`Int64.max`
/// instead of trapping.
public struct VirtualDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The length in microseconds.
    public var microseconds: Int64

    /// Creates a duration from microseconds.
    ///
    /// ```swift
    /// let tick = VirtualDuration(microseconds: 16_667)
    /// ```
    ///
    /// - Parameter microseconds: any value; negative durations are allowed.
    @inlinable
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// Converts a standard-library `Duration`, rounding to the nearest microsecond (halves away
    /// from zero) and saturating beyond the `Int64` range.
    ///
    /// ```swift
    /// VirtualDuration(.nanoseconds(1_500)).microseconds   // 2
    /// VirtualDuration(.seconds(2)).microseconds           // 2_000_000
    /// ```
    ///
    /// - Parameter duration: any duration (its attosecond precision is rounded away).
    public init(_ duration: Swift.Duration) {
        // The native `Int128` of `attoseconds`, not `components`: the latter goes through the
        // standard library's software 128-bit division, which was 6% of a workload that passes
        // a `Duration` per statement (notes-import). Durations under about 9.2 s fit in `Int64`.
        let attoseconds = duration.attoseconds
        if let small = Int64(exactly: attoseconds) {
            self.init(microseconds: Self.roundedMicroseconds(small))
            return
        }
        let perMicrosecond: Int128 = 1_000_000_000_000
        var micros = attoseconds / perMicrosecond
        let remainder = attoseconds % perMicrosecond
        if remainder >= perMicrosecond / 2 { micros += 1 }
        if remainder <= -perMicrosecond / 2 { micros -= 1 }
        self.init(microseconds: Int64(clamping: micros))
    }

    /// Attoseconds to microseconds, rounding halves away from zero (division truncates toward
    /// zero, so quotient and remainder share the sign).
    @inline(__always)
    private static func roundedMicroseconds(_ attoseconds: Int64) -> Int64 {
        let perMicrosecond: Int64 = 1_000_000_000_000
        var micros = attoseconds / perMicrosecond
        let remainder = attoseconds % perMicrosecond
        if remainder >= perMicrosecond / 2 { micros += 1 }
        if remainder <= -perMicrosecond / 2 { micros -= 1 }
        return micros
    }

    /// The same span as a standard-library `Duration`.
    ///
    /// ```swift
    /// VirtualDuration.milliseconds(250).duration   // .milliseconds(250)
    /// ```
    public var duration: Swift.Duration {
        Swift.Duration(attoseconds: Int128(microseconds) * 1_000_000_000_000)
    }

    /// No time at all.
    public static let zero = VirtualDuration(microseconds: 0)

    /// `s` seconds (saturating).
    ///
    /// ```swift
    /// let budget = VirtualDuration.seconds(30)
    /// ```
    ///
    /// - Parameter s: seconds.
    @inlinable
    public static func seconds(_ s: Int64) -> VirtualDuration {
        VirtualDuration(microseconds: Saturating.multiply(s, 1_000_000))
    }

    /// `ms` milliseconds (saturating).
    ///
    /// ```swift
    /// let debounce = VirtualDuration.milliseconds(300)
    /// ```
    ///
    /// - Parameter ms: milliseconds.
    @inlinable
    public static func milliseconds(_ ms: Int64) -> VirtualDuration {
        VirtualDuration(microseconds: Saturating.multiply(ms, 1_000))
    }

    /// `us` microseconds.
    ///
    /// ```swift
    /// let smallest = VirtualDuration.microseconds(1)
    /// ```
    ///
    /// - Parameter us: microseconds.
    @inlinable
    public static func microseconds(_ us: Int64) -> VirtualDuration {
        VirtualDuration(microseconds: us)
    }

    /// Seconds with exactly six decimals and an `s`: `"0.250000s"`.
    ///
    /// ```swift
    /// VirtualDuration.milliseconds(250).description   // "0.250000s"
    /// ```
    public var description: String {
        TimeFormatting.seconds(microseconds)
    }

    /// Orders durations by ``microseconds``.
    @inlinable
    public static func < (lhs: VirtualDuration, rhs: VirtualDuration) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
}
