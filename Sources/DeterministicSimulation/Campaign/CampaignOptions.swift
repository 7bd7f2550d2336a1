/// Everything that decides what a campaign runs (and nothing that decides only how fast).
///
/// ```swift
/// let options = CampaignOptions(seed: Seed(0x2a), runs: 10_000, jobs: 4, shard: try Shard(parsing: "1/2"))
/// ```
///
/// Contract: `jobs` changes speed, never results; the other fields decide the result.
public struct CampaignOptions: Sendable, Equatable {
    /// The campaign seed; run `i` uses `seed.derive(index: UInt64(i))`.
    public var seed: Seed
    /// The number of runs of the whole campaign (all shards together).
    public var runs: Int
    /// Worker threads (at least 1).
    public var jobs: Int
    /// The slice of the runs this process executes.
    public var shard: Shard
    /// How many runs (besides the failing ones) are rerun in process to check determinism, spread
    /// evenly over the runs: by default one in ``determinismSampleInterval`` and at least 3.
    public var determinismSamples: Int
    /// At most this many failure records are kept and shrunk (one per distinct invariant).
    public var maxShrunkFailures: Int
    /// How hard to shrink.
    public var shrink: ShrinkOptions
    /// Coverage guidance (the `coverage` strategy and `default`'s share of it); `nil`: every run
    /// independent, from its run seed.
    public var guidance: CoverageGuidance?

    /// By default one run in this many is rerun to check determinism (4% of the runs' time, as
    /// FoundationDB reruns a sample of its simulations), besides every failure it reports.
    package static let determinismSampleInterval = 25

    /// `determinismSamples` nil: one run in ``determinismSampleInterval``, at least 3.
    public init(seed: Seed, runs: Int, jobs: Int, shard: Shard = .whole, determinismSamples: Int? = nil,
                maxShrunkFailures: Int = 8, shrink: ShrinkOptions = .init(), guidance: CoverageGuidance? = nil) {
        self.seed = seed
        self.runs = max(0, runs)
        self.jobs = max(1, jobs)
        self.shard = shard
        self.determinismSamples = max(0, determinismSamples ?? max(3, self.runs / Self.determinismSampleInterval))
        self.maxShrunkFailures = max(0, maxShrunkFailures)
        self.shrink = shrink
        self.guidance = guidance
    }

    /// The seed of run `runIndex`.
    public func runSeed(_ runIndex: Int) -> Seed { seed.derive(index: UInt64(runIndex)) }
}

/// A snapshot of a running campaign, for a progress line.
///
/// ```swift
/// progress: { p in print("\(p.runsDone)/\(p.runsTotal), \(p.failures) failing") }
/// ```
public struct CampaignProgress: Sendable, Equatable {
    /// Runs finished so far (in this shard).
    public var runsDone: Int
    /// Runs this shard will execute.
    public var runsTotal: Int
    /// Finished runs per wall-clock second so far.
    public var runsPerSecond: Double
    /// Failing runs so far.
    public var failures: Int
    /// Estimated wall-clock seconds left; `nil` before the rate is known.
    public var secondsLeft: Double?

    public init(runsDone: Int, runsTotal: Int, runsPerSecond: Double, failures: Int, secondsLeft: Double?) {
        self.runsDone = runsDone
        self.runsTotal = runsTotal
        self.runsPerSecond = runsPerSecond
        self.failures = failures
        self.secondsLeft = secondsLeft
    }
}
