/// What a bounded exhaustive search explores (``ExhaustiveSearch``): the depth, and what only
/// decides how fast.
///
/// ```swift
/// let options = ExhaustiveOptions(depth: 6, jobs: 2)
/// let result = ExhaustiveSearch.run(target, options: options, campaign: CampaignOptions(seed: Seed(1), runs: 0, jobs: 2))
/// ```
///
/// Contract: `jobs` changes speed, never results; `depth` and `deduplicates` decide the result.
public struct ExhaustiveOptions: Sendable, Equatable {
    /// The depths `--depth` and `campaign.depth` accept.
    public static let depthRange = 1...12
    /// The depth of a scenario that names the strategy without `campaign.depth`.
    public static let defaultDepth = 4

    /// The most depth a sequence may cost: each environment action costs 1, and so does each
    /// scheduling choice other than the first (a preemption, or a ready job run out of order).
    public var depth: Int
    /// Worker threads (at least 1); changes speed, never results.
    public var jobs: Int
    /// Whether a branch whose state was already explored with at least as much depth left is
    /// cut (`false` only to measure what deduplication saves).
    public var deduplicates: Bool

    public init(depth: Int, jobs: Int = 1, deduplicates: Bool = true) {
        self.depth = max(0, depth)
        self.jobs = max(1, jobs)
        self.deduplicates = deduplicates
    }
}

/// What a bounded exhaustive search explored: the figures of its report section and summary line.
///
/// ```swift
/// print("\(stats.sequences) sequences, \(stats.distinctStates) distinct states")
/// ```
///
/// Contract: every field is the same for every job count (`wallSeconds` aside).
public struct ExhaustiveStats: Sendable, Equatable {
    /// The depth bound searched.
    public var depth: Int
    /// Runs explored: each is one sequence of choices, a leaf of the tree.
    public var sequences: Int
    /// Distinct state hashes reached at the nodes of the tree.
    public var distinctStates: Int
    /// Nodes cut because their state had already been explored with at least as much depth left.
    public var prunedBranches: Int
    /// The largest depth any explored sequence cost (at most ``depth``).
    public var depthReached: Int
    /// Whether the whole tree was searched (false when interrupted).
    public var complete: Bool

    public init(depth: Int, sequences: Int = 0, distinctStates: Int = 0, prunedBranches: Int = 0, depthReached: Int = 0,
                complete: Bool = true) {
        self.depth = depth
        self.sequences = sequences
        self.distinctStates = distinctStates
        self.prunedBranches = prunedBranches
        self.depthReached = depthReached
        self.complete = complete
    }
}
