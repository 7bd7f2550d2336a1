/// How a campaign guides its runs by coverage (the `coverage` exploration strategy, and the
/// coverage share of `default`): runs go in generations of ``generationSize``; after the first
/// generation a share of each generation's runs are mutants of a corpus of earlier runs that
/// reached new coverage (``ChoiceMutator``), the others fresh runs from their run seeds.
///
/// ```swift
/// var options = CampaignOptions(seed: Seed(0xb6), runs: 2_000, jobs: 2)
/// options.guidance = .coverage                       // bgsim fuzz --strategy coverage
/// let result = Campaign.run(target, options: options)
/// ```
///
/// Contract: the corpus changes only at generation boundaries, in run-index order, so every
/// `jobs` value gives the same runs. With `--shard K/N` each shard evolves its own corpus from its
/// own runs (a shard's fresh runs are the unsharded campaign's runs of the same indices; its
/// mutants are its own): a sharded campaign is deterministic for a given K/N, and its merged
/// report is that of the N-way split, not the unsharded one.
public struct CoverageGuidance: Sendable, Equatable {
    /// Runs per generation: the corpus is updated after each.
    package var generationSize: Int
    /// The share of runs after the first generation that are mutants (the rest are fresh runs).
    package var mutantShare: Double
    /// At most this many corpus entries are kept (the oldest go first).
    package var corpusLimit: Int
    /// The categories whose entries count as new coverage again at each count bucket (1, 2, 3,
    /// 4-7, ...): the rare ones, where "reached more often" means "went deeper" (the simulator's
    /// `conditions`, such as the third BGTask launch without an open, and probes). Entries of
    /// other categories are new only the first time.
    package var bucketedCategories: [String] = [Coverage.probesCategory, "conditions"]

    public init(generationSize: Int = 100, mutantShare: Double, corpusLimit: Int = 256) {
        self.generationSize = max(1, generationSize)
        self.mutantShare = min(1, max(0, mutantShare))
        self.corpusLimit = max(1, corpusLimit)
    }

    /// The `coverage` strategy: nine runs in ten are mutants after the first generation.
    public static let coverage = CoverageGuidance(mutantShare: 0.9)
}
