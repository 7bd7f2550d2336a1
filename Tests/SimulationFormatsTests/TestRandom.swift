/// SplitMix64 for the IO tests: deterministic and independent of the standard library's
/// random algorithms, so a seed means the same test input forever.
struct TestRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0), by multiply-shift (bias is irrelevant for tests).
    mutating func below(_ bound: Int) -> Int {
        Int((UInt128(next()) * UInt128(bound)) >> 64)
    }

    /// A value in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    /// One element of `elements` (non-empty).
    mutating func pick<T>(_ elements: [T]) -> T {
        elements[below(elements.count)]
    }
}
