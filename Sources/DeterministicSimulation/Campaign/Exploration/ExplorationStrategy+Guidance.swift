extension ExplorationStrategy {
    /// The coverage guidance a campaign of this strategy runs with (``CampaignOptions/guidance``):
    /// ``CoverageGuidance/coverage`` for `coverage`, none (independent runs) for the others.
    ///
    /// ```swift
    /// let options = CampaignOptions(seed: seed, runs: 1_000, jobs: 2, guidance: scenario.strategy.guidance)
    /// ```
    ///
    /// Contract: `default` has none: with a third of its runs coverage-guided it missed the deep
    /// reader-prefetch bug at that scenario's own seed within its budget (measured; README,
    /// "Exploration strategies"), so the mix stays random and swarm.
    public var guidance: CoverageGuidance? {
        switch self {
        case .coverage: .coverage
        default: nil
        }
    }
}
