extension ExplorationStrategy {
    /// The coverage guidance a campaign of this strategy runs with (``CampaignOptions/guidance``):
    /// ``CoverageGuidance/coverage`` for `coverage`, ``CoverageGuidance/defaultMix`` for
    /// `default`, none (independent runs) for the others.
    ///
    /// ```swift
    /// let options = CampaignOptions(seed: seed, runs: 1_000, jobs: 2, guidance: scenario.strategy.guidance)
    /// ```
    public var guidance: CoverageGuidance? {
        switch self {
        case .coverage: .coverage
        case .default: .defaultMix
        default: nil
        }
    }
}

extension CoverageGuidance {
    /// `default`'s share of coverage guidance: after the first generation, this share of runs are
    /// mutants; the rest are fresh random or swarm runs (half and half).
    public static let defaultMix = CoverageGuidance(mutantShare: 1.0 / 3)
}
