/// `coverage`: coverage-guided exploration (libFuzzer, AFL). After a first generation of fresh
/// runs, most runs are mutants of a corpus of earlier runs that reached new coverage
/// (``CoverageGuidance/coverage``); each run's own first draws are those of a `default` run.
///
/// ```swift
/// ExplorationStrategy.coverage.exploration.guidance   // CoverageGuidance.coverage
/// ```
///
/// Contract: the corpus changes only at generation boundaries, in run-index order, so every
/// `jobs` value gives the same runs (``CoverageGuidance``).
package enum CoverageExploration: CampaignExploration {
    package static let summary = "mutants of a corpus of runs that reached new coverage, evolved in generations of 100 runs"
    package static let guidance: CoverageGuidance? = .coverage
    package static let firstDraws = DefaultExploration.firstDraws
}
