/// `exhaustive`: bounded exhaustive search (``ExhaustiveSearch``): every sequence of environment
/// actions and scheduling choices up to a depth (``ExhaustiveOptions``), deduplicated by a hash
/// of the simulated state, for small workloads.
///
/// ```swift
/// ExplorationStrategy.exhaustive.exploration.firstDraws   // .exhaustiveEnvironment
/// ```
///
/// Contract: its runs draw nothing at random (a run is its choices); a campaign of it is a
/// search with no run budget, and is not sharded.
package enum ExhaustiveExploration: CampaignExploration {
    package static let summary =
        "every sequence of actions and scheduling choices up to a depth, deduplicated by state (no run budget)"
    package static let firstDraws = RunFirstDraws.exhaustiveEnvironment
}
