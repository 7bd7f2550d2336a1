/// SplitMix64, the 64-bit generator of Steele, Lea and Flood (as published by Vigna): a Weyl
/// sequence with a strong output mix.
///
/// The engine uses it to expand one seed into several well-mixed words (the state of
/// ``Xoshiro256StarStar``, the run seeds of a campaign), never as the simulation's main generator.
///
/// ```swift
/// var generator = SplitMix64(seed: 0)
/// generator.next()   // 0xe220a8397b1dcdaf
/// generator.next()   // 0x6e789e6aa1b965f4
/// ```
///
/// Contract: the output sequence for a seed is fixed forever and pinned by golden tests. Output `i`
/// (counting from 0) is `mix(seed &+ (i + 1) &* 0x9e3779b97f4a7c15)`, where ``mix(_:)`` is the
/// finalizer below. Every seed, 0 included, is valid. `next()` is O(1) and allocation-free.
public struct SplitMix64: Sendable {
    /// The increment of the Weyl sequence: 2^64 divided by the golden ratio, made odd.
    public static let gamma: UInt64 = 0x9e37_79b9_7f4a_7c15

    /// The current position of the Weyl sequence.
    @usableFromInline internal var state: UInt64

    /// Creates a generator whose first output is `mix(seed &+ gamma)`.
    ///
    /// ```swift
    /// var generator = SplitMix64(seed: 42)
    /// ```
    ///
    /// - Parameter seed: any 64-bit value.
    @inlinable
    public init(seed: UInt64) {
        state = seed
    }

    /// Advances the state by ``gamma`` and returns the mixed state.
    ///
    /// ```swift
    /// var generator = SplitMix64(seed: 0)
    /// let word = generator.next()   // 0xe220a8397b1dcdaf
    /// ```
    ///
    /// - Complexity: O(1), no allocation.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= Self.gamma
        return Self.mix(state)
    }

    /// The SplitMix64 output function (Stafford's "Mix13" variant), a bijection on 64-bit words
    /// with full avalanche: every input bit flips each output bit with probability close to 1/2.
    ///
    /// ```swift
    /// SplitMix64.mix(0x9e3779b97f4a7c15)   // 0xe220a8397b1dcdaf, the first output for seed 0
    /// ```
    ///
    /// Contract: `z ^= z >> 30; z &*= 0xbf58476d1ce4e5b9; z ^= z >> 27; z &*= 0x94d049bb133111eb;
    /// z ^= z >> 31`. `mix(0) == 0`. O(1).
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z &>> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z &>> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z &>> 31)
    }

    /// The inverse of ``mix(_:)``: `unmix(mix(x)) == x` for every word.
    ///
    /// ```swift
    /// SplitMix64.unmix(0xe220a8397b1dcdaf)   // 0x9e3779b97f4a7c15
    /// ```
    ///
    /// Contract: each step of ``mix(_:)`` undone in reverse order: a right xorshift by `k` is
    /// undone by xoring in the shifts by `k`, `2k`, ... below 64, a multiplication by an odd
    /// constant by a multiplication by its inverse modulo 2^64. O(1).
    public static func unmix(_ value: UInt64) -> UInt64 {
        var z = unshift(value, 31)
        z = unshift(z &* inverse(0x94d0_49bb_1331_11eb), 27)
        return unshift(z &* inverse(0xbf58_476d_1ce4_e5b9), 30)
    }

    /// Undoes `z ^= z >> shift`.
    private static func unshift(_ value: UInt64, _ shift: UInt64) -> UInt64 {
        var result = value
        var step = shift
        while step < 64 {
            result = value ^ (result &>> shift)
            step += shift
        }
        return result
    }

    /// The inverse of the odd word `value` modulo 2^64 (Newton's iteration: each step doubles the
    /// bits that are right, from 3 to 96).
    static func inverse(_ value: UInt64) -> UInt64 {
        var inverse = value  // right in the low 3 bits for every odd value
        for _ in 0..<5 { inverse &*= 2 &- value &* inverse }
        return inverse
    }
}
