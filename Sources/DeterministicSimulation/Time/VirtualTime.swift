/// A point in simulated time: whole microseconds since the start of a run.
///
/// Integer microseconds keep arithmetic exact and traces identical across platforms (no
/// floating-point drift, no formatting differences).
///
/// ```swift
/// let deadline = VirtualTime.seconds(30) + .milliseconds(250)
/// print(deadline)   // "30.250000s"
/// ```
///
/// Contract: ordered by ``microseconds``; arithmetic saturates at `Int64.min`/`Int64.max`
/// instead of trapping. Time only moves through ``VirtualClock``.
public struct VirtualTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the start of the run (may be negative only if constructed so).
    public var microseconds: Int64

    /// Creates a time from microseconds since the start of the run.
    ///
    /// ```swift
    /// let t = VirtualTime(microseconds: 1_500_000)   // 1.5 s
    /// ```
    ///
    /// - Parameter microseconds: any value.
    @inlinable
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// The start of a run.
    public static let zero = VirtualTime(microseconds: 0)

    /// The latest representable time, later than any job a run schedules; a limit meaning "no
    /// limit".
    package static let distantFuture = VirtualTime(microseconds: .max)

    /// `s` whole seconds after the start (saturating).
    ///
    /// ```swift
    /// scheduler.run(until: .seconds(600))
    /// ```
    ///
    /// - Parameter s: seconds.
    @inlinable
    public static func seconds(_ s: Int64) -> VirtualTime {
        VirtualTime(microseconds: Saturating.multiply(s, 1_000_000))
    }

    /// `ms` milliseconds after the start (saturating).
    ///
    /// ```swift
    /// let t = VirtualTime.milliseconds(1_250)   // 1.250000s
    /// ```
    ///
    /// - Parameter ms: milliseconds.
    @inlinable
    public static func milliseconds(_ ms: Int64) -> VirtualTime {
        VirtualTime(microseconds: Saturating.multiply(ms, 1_000))
    }

    /// Seconds with exactly six decimals and an `s`: `"12.000345s"`, `"-0.000001s"`.
    ///
    /// ```swift
    /// VirtualTime(microseconds: 12_000_345).description   // "12.000345s"
    /// ```
    public var description: String {
        TimeFormatting.seconds(microseconds)
    }

    /// Orders times by ``microseconds``.
    @inlinable
    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
}
