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
        let (seconds, attoseconds) = duration.components
        // `components` truncates toward zero, so both parts share the sign of the duration.
        let perMicrosecond: Int64 = 1_000_000_000_000
        var micros = attoseconds / perMicrosecond
        let remainder = attoseconds % perMicrosecond
        if remainder >= perMicrosecond / 2 { micros += 1 }
        if remainder <= -perMicrosecond / 2 { micros -= 1 }
        self.init(microseconds: Saturating.add(Saturating.multiply(seconds, 1_000_000), micros))
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
