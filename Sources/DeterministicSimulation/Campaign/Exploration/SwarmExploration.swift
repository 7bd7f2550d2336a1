/// `swarm`: swarm testing (Groce et al., ISSTA 2012). Each run first draws which environment
/// actions (user actions and faults alike) are enabled and their weights, then runs like a
/// `random` run under that mix.
///
/// ```swift
/// ExplorationStrategy.swarm.exploration.firstDraws   // .swarmMix
/// ```
///
/// Contract: the mix is drawn from the run's own choices and marked as a span
/// (``ChoiceSpan/Kind/swarmMix``) whose zero outcomes are the scenario's own settings, so
/// shrinking moves towards the scenario's mix (the simulator's `SwarmEnvironment` draws it).
package enum SwarmExploration: CampaignExploration {
    package static let summary = "each run first draws which actions and faults are enabled, and their weights"
    package static let firstDraws = RunFirstDraws.swarmMix
}
