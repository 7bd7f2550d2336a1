extension Seed {
    /// The seed of run `index` of the campaign whose seed is `self`.
    ///
    /// ```swift
    /// let campaign = Seed(0x2a)
    /// let runSeeds = (0..<100).map { campaign.derive(index: $0) }
    /// ```
    ///
    /// Contract: run seed `i` is output `i` (counting from 0) of `SplitMix64(seed: rawValue)`,
    /// computed in O(1) by jumping the Weyl sequence:
    /// `SplitMix64.mix(rawValue &+ (index &+ 1) &* SplitMix64.gamma)`. Distinct indices give
    /// distinct seeds (the map is a bijection for a fixed campaign seed, since `mix` is one and
    /// `gamma` is odd). Fixed forever; pinned by golden tests.
    ///
    /// - Parameter index: the run's position in the campaign, from 0.
    /// - Complexity: O(1).
    public func derive(index: UInt64) -> Seed {
        Seed(SplitMix64.mix(rawValue &+ (index &+ 1) &* SplitMix64.gamma))
    }

    /// The index of the run of the campaign whose seed is `self` that has seed `runSeed`: the
    /// inverse of ``derive(index:)``, so a run seed alone says which run it was.
    ///
    /// ```swift
    /// let campaign = Seed(0x2a)
    /// campaign.runIndex(of: campaign.derive(index: 7))   // 7
    /// ```
    ///
    /// Contract: `runIndex(of: derive(index: i)) == i` for every `i`; a seed of another campaign
    /// gives an unrelated index, almost never a small one (a check of `index < runs` tells the
    /// campaign's own run seeds from others but for a chance of `runs` in 2^64). O(1).
    public func runIndex(of runSeed: Seed) -> UInt64 {
        (SplitMix64.unmix(runSeed.rawValue) &- rawValue) &* SplitMix64.inverse(SplitMix64.gamma) &- 1
    }

    /// The seed of one subsystem of the run whose seed is `self`: `"environment"`, `"scheduler"`,
    /// `"workload"`, or any other label.
    ///
    /// ```swift
    /// let runSeed = Seed(0x2a)
    /// let environment = ChoiceSource(seed: runSeed.derive("environment"))
    /// let scheduler = ChoiceSource(seed: runSeed.derive("scheduler"))
    /// ```
    ///
    /// Contract: a ``StableHasher`` is fed `"DeterministicSimulation.Seed.derive"` (as a string),
    /// then `rawValue`, then `stream` (as a string: its UTF-8 length and bytes), and the result is
    /// its ``StableHasher/finalize()``. Different labels give unrelated seeds; the same label gives
    /// the same seed forever (pinned by golden tests).
    ///
    /// - Parameter stream: the subsystem's label; any string, compared by its UTF-8 bytes.
    /// - Complexity: O(length of `stream`).
    public func derive(_ stream: String) -> Seed {
        var hasher = StableHasher()
        hasher.combine("DeterministicSimulation.Seed.derive")
        hasher.combine(rawValue)
        hasher.combine(stream)
        return Seed(hasher.finalize())
    }
}
