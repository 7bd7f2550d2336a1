/// xoshiro256** 1.0 (Blackman and Vigna, 2018): the engine's pseudo-random generator.
///
/// Fast (a handful of shifts, rotates and two multiplies per word), 256 bits of state, period
/// 2^256 - 1, and no known statistical weakness in its output. The engine never uses the standard
/// library's generators: a seed must mean the same run on every platform and Swift version.
///
/// ```swift
/// var generator = Xoshiro256StarStar(seed: 0x2a)
/// let word = generator.next()             // a full 64-bit word
/// let die = generator.next(below: 6) + 1  // 1...6, unbiased
/// ```
///
/// Contract: the sequence for a seed is fixed forever and pinned by golden tests. The state is
/// never all zero (the one state the algorithm cannot leave). `next()` and `next(below:)` are O(1)
/// (expected) and allocation-free.
package struct Xoshiro256StarStar: Sendable {
    @usableFromInline internal var s0: UInt64
    @usableFromInline internal var s1: UInt64
    @usableFromInline internal var s2: UInt64
    @usableFromInline internal var s3: UInt64

    /// Creates a generator whose state is four successive outputs of `SplitMix64(seed: seed)`,
    /// the seeding the algorithm's authors recommend.
    ///
    /// ```swift
    /// let runSeed = Seed(0x2a)
    /// var generator = Xoshiro256StarStar(seed: runSeed.rawValue)
    /// ```
    ///
    /// - Parameter seed: any 64-bit value; 0 is fine (SplitMix64 never yields four zero words).
    @inlinable
    public init(seed: UInt64) {
        var expander = SplitMix64(seed: seed)
        s0 = expander.next()
        s1 = expander.next()
        s2 = expander.next()
        s3 = expander.next()
    }

    /// Creates a generator from an explicit 256-bit state, as the reference implementation's
    /// test vectors do.
    ///
    /// ```swift
    /// var generator = Xoshiro256StarStar(state: (1, 2, 3, 4))
    /// generator.next()   // 11520
    /// ```
    ///
    /// - Parameter state: the four state words `s[0]...s[3]`; must not be all zero.
    /// - Precondition: at least one word is nonzero.
    public init(state: (UInt64, UInt64, UInt64, UInt64)) {
        precondition(
            state.0 | state.1 | state.2 | state.3 != 0,
            "xoshiro256** cannot start from the all-zero state")
        (s0, s1, s2, s3) = state
    }

    /// Returns the next 64-bit output and advances the state.
    ///
    /// ```swift
    /// var generator = Xoshiro256StarStar(seed: 0)
    /// let word = generator.next()
    /// ```
    ///
    /// Contract: `result = rotl(s[1] * 5, 7) * 9`, then the xoshiro256 linear step. O(1).
    @inlinable
    public mutating func next() -> UInt64 {
        let result = Self.rotateLeft(s1 &* 5, by: 7) &* 9
        advance()
        return result
    }

    /// The xoshiro256 linear step: the state after one output.
    @inlinable @inline(__always)
    internal mutating func advance() {
        let t = s1 &<< 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotateLeft(s3, by: 45)
    }

    /// Advances the state by `count` steps, as `count` calls of ``next()`` would, without
    /// computing their outputs (a caller that must consume draws it does not look at).
    ///
    /// ```swift
    /// var a = Xoshiro256StarStar(seed: 1), b = a
    /// a.skip(3); for _ in 0..<3 { _ = b.next() }   // a and b now give the same outputs
    /// ```
    @inlinable
    public mutating func skip(_ count: Int) {
        var remaining = count
        while remaining > 0 {
            advance()
            remaining -= 1
        }
    }

    /// Returns a uniformly distributed value in `0..<bound`, without modulo bias.
    ///
    /// ```swift
    /// var generator = Xoshiro256StarStar(seed: 7)
    /// let card = generator.next(below: 52)   // 0...51
    /// ```
    ///
    /// Contract: Lemire's multiply-shift with rejection ("Fast random integer generation in an
    /// interval", 2019): take the high word of `next() * bound`; if the low word is below
    /// `(2^64 - bound) % bound`, reject and draw again. So the result depends only on the outputs
    /// consumed, and usually exactly one output is consumed. `bound == 0` returns 0 and leaves the
    /// state untouched (there is no value below 0; callers wanting "any word" use `next()`).
    /// `bound == 1` consumes one output and returns 0.
    ///
    /// - Parameter bound: the exclusive upper bound.
    /// - Complexity: expected O(1); the rejection probability is below `bound / 2^64`.
    @inlinable
    public mutating func next(below bound: UInt64) -> UInt64 {
        if bound == 0 { return 0 }
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    @inlinable
    internal static func rotateLeft(_ value: UInt64, by amount: UInt64) -> UInt64 {
        (value &<< amount) | (value &>> (64 &- amount))
    }
}
