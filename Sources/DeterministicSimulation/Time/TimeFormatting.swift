/// Formatting of microsecond counts as seconds with six decimals.
enum TimeFormatting {
    /// `"12.000345s"`; negative values get a leading `-` (`"-0.000001s"`); exact for every
    /// `Int64`, including `Int64.min`.
    static func seconds(_ microseconds: Int64) -> String {
        let magnitude = microseconds.magnitude
        let whole = magnitude / 1_000_000
        let fraction = String(magnitude % 1_000_000)
        let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
        return (microseconds < 0 ? "-" : "") + String(whole) + "." + padded + "s"
    }
}
