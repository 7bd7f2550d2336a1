/// `default`: the mix, and the strategy of a scenario without `campaign.strategy` and of `fuzz`
/// without `--strategy`. A campaign of it is phased (``ExplorationStrategy/effective(forRun:)``):
/// its first ``randomRuns`` runs are plain `random` runs that draw nothing extra (exactly the
/// runs, failures and shrinks of a `random` campaign: shallow bugs are found there), and every
/// later run first draws one coin (recorded like every choice): a `random` run or a `swarm` run,
/// ``swarmShare`` of them swarm.
///
/// ```swift
/// ExplorationStrategy.default.effective(forRun: 0)       // .random
/// ExplorationStrategy.default.exploration.firstDraws     // .swarmCoin(swarmShare: 0.5)
/// ```
///
/// Contract: a single run of it (`bgsim replay --strategy default`, a ``RunSpec``) is a coin
/// run. It has no coverage-guided share: with a third of its runs coverage-guided it missed the
/// deep reader-prefetch bug at that scenario's own seed within its budget (measured; README,
/// "Exploration strategies"), so the mix stays random and swarm.
package enum DefaultExploration: CampaignExploration {
    /// How many runs a `default` campaign starts with as plain `random` runs (no coin). Every
    /// shipped shallow planted bug fails within its first runs under `random` (median run 1),
    /// so they keep today's first failure, shrink and pins; the deep bugs, which `random`
    /// reaches in fewer than 1 of 10,000 runs, lose at most this many of their 5,000-10,000.
    package static let randomRuns = 100
    /// The share of coin runs that are swarm runs.
    package static let swarmShare = 0.5

    package static var summary: String {
        "when a scenario names none: runs 0 to \(randomRuns - 1) are random runs, each later run a random or a "
            + "swarm run, half and half (drawn from its choices)"
    }
    package static let firstDraws = RunFirstDraws.swarmCoin(swarmShare: swarmShare)
}
