/// Saturating `Int64` arithmetic for times and durations: results clamp to `Int64.min`/`.max`
/// instead of trapping, so "forever" (`.max`) stays "forever" whatever is added to it.
@usableFromInline
internal enum Saturating {
    @inlinable
    static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if !overflow { return sum }
        return b > 0 ? .max : .min
    }

    @inlinable
    static func subtract(_ a: Int64, _ b: Int64) -> Int64 {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        if !overflow { return difference }
        return b < 0 ? .max : .min
    }

    @inlinable
    static func multiply(_ a: Int64, _ b: Int64) -> Int64 {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        if !overflow { return product }
        return (a < 0) == (b < 0) ? .max : .min
    }
}
