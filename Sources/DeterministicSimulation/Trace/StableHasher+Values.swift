extension StableHasher {
    /// Feeds a time as its microseconds.
    ///
    /// ```swift
    /// hasher.combine(clock.now)
    /// ```
    @inlinable
    public mutating func combine(_ time: VirtualTime) {
        combine(time.microseconds)
    }

    /// Feeds a duration as its microseconds.
    ///
    /// ```swift
    /// hasher.combine(VirtualDuration.seconds(30))
    /// ```
    @inlinable
    public mutating func combine(_ duration: VirtualDuration) {
        combine(duration.microseconds)
    }

    /// Feeds a seed as its raw value.
    ///
    /// ```swift
    /// hasher.combine(runSeed)
    /// ```
    @inlinable
    public mutating func combine(_ seed: Seed) {
        combine(seed.rawValue)
    }
}
