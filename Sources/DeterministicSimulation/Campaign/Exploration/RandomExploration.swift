/// `random`: every run from the scenario's one mix of environment actions (uniform random
/// testing).
///
/// ```swift
/// ExplorationStrategy.random.exploration.firstDraws   // .nothing
/// ```
///
/// Contract: draws nothing extra, so its runs are exactly those of a campaign without
/// exploration strategies; the first ``DefaultExploration/randomRuns`` runs of a `default`
/// campaign are its runs.
package enum RandomExploration: CampaignExploration {
    package static let summary = "every run from the scenario's one mix of actions"
    package static let firstDraws = RunFirstDraws.nothing
}
