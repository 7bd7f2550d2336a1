/// What one exploration strategy decides for a campaign, one type per strategy, each in its own
/// file: ``RandomExploration``, ``SwarmExploration``, ``DefaultExploration``,
/// ``CoverageExploration``, ``ExhaustiveExploration``. ``ExplorationStrategy`` names them (the
/// scenario key, the `--strategy` value, what saved failures store) and forwards to its case's
/// type, once (``ExplorationStrategy/exploration``).
///
/// ```swift
/// let exploration = ExplorationStrategy.coverage.exploration
/// print(exploration.summary, exploration.guidance != nil)   // ... true
/// ```
///
/// Contract: a strategy decides only from the run index (``randomRuns``: which phase a run is
/// in) and from the run's own choices (``firstDraws``, drawn before anything else), so a run
/// still replays alone from its run seed or its recorded choices under the same strategy, and
/// `--jobs` and `--shard` change speed, never results. A strategy that draws nothing
/// (``RunFirstDraws/nothing``) runs exactly the runs of a campaign without strategies.
package protocol CampaignExploration {
    /// One line for `bgsim list` and `bgsim help`.
    static var summary: String { get }
    /// How many runs, from run 0, a campaign of this strategy runs as `random` runs (0 for all
    /// but `default`).
    static var randomRuns: Int { get }
    /// The coverage guidance its campaign runs with; nil (the usual) for independent runs.
    static var guidance: CoverageGuidance? { get }
    /// What each of its runs draws first, before anything else.
    static var firstDraws: RunFirstDraws { get }
}

extension CampaignExploration {
    package static var randomRuns: Int { 0 }
    package static var guidance: CoverageGuidance? { nil }
}

/// What a run of an exploration strategy draws before anything else; the simulator draws it
/// (`ExplorationStrategy.spec(for:choices:)`), marking the spans the shrinker edits.
package enum RunFirstDraws: Sendable, Equatable {
    /// Nothing: the run uses the scenario's one mix of environment actions.
    case nothing
    /// Which environment actions are enabled, their weights and the run's pace (a swarm run).
    case swarmMix
    /// One coin, `true` (a swarm run) with probability `swarmShare`, then the swarm mix if it
    /// came up swarm; `false`, the simplest outcome, is a run from the scenario's mix.
    case swarmCoin(swarmShare: Double)
    /// Nothing at random: the environment of a bounded exhaustive search.
    case exhaustiveEnvironment
}
