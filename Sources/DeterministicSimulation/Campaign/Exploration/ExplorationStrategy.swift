/// How a campaign explores the space of runs: which environment a run is driven by, beyond the
/// one fixed mix of a scenario. Not to be confused with the interleaving strategy of the
/// simulated threads (random walk, PCT), which a scenario sets under `environment.concurrency`.
///
/// ```swift
/// let strategy = ExplorationStrategy(rawValue: "swarm")!   // bgsim fuzz --strategy swarm
/// print(strategy.summary)
/// ```
///
/// Contract: every strategy draws whatever it varies from the run's own choices, at the start
/// of the run, so a run still replays alone from its run seed (`bgsim replay --seed`) or its
/// recorded choices (`--choices`) under the same strategy, and `--jobs` and `--shard` change
/// speed, never results. `random` draws nothing extra: its runs are exactly those of a campaign
/// without exploration strategies. Each case is the name of one strategy; what it decides is its
/// type's, in its own file (``exploration``, ``CampaignExploration``).
public enum ExplorationStrategy: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Every run from the scenario's one mix of environment actions (``RandomExploration``).
    case random
    /// Swarm testing: each run first draws which environment actions are enabled and their
    /// weights (``SwarmExploration``).
    case swarm
    /// The mix, and the strategy when none is named: random runs first, then each run a random
    /// or a swarm run (``DefaultExploration``).
    case `default`
    /// Bounded exhaustive search up to a depth, deduplicated by state (``ExhaustiveExploration``).
    case exhaustive
    /// Coverage-guided: mutants of a corpus of runs that reached new coverage
    /// (``CoverageExploration``).
    case coverage

    /// The type that decides for this strategy: the one switch over the cases.
    package var exploration: any CampaignExploration.Type {
        switch self {
        case .random: RandomExploration.self
        case .swarm: SwarmExploration.self
        case .default: DefaultExploration.self
        case .exhaustive: ExhaustiveExploration.self
        case .coverage: CoverageExploration.self
        }
    }

    /// The share of `default` coin runs that are swarm runs (``DefaultExploration/swarmShare``).
    public static let defaultSwarmShare = DefaultExploration.swarmShare

    /// How many runs a `default` campaign starts with as plain `random` runs
    /// (``DefaultExploration/randomRuns``).
    public static let defaultRandomRuns = DefaultExploration.randomRuns

    /// How many runs, from run 0, a campaign of this strategy runs as `random` runs:
    /// ``defaultRandomRuns`` for `default`, 0 for the others.
    public var randomRuns: Int { exploration.randomRuns }

    /// The coverage guidance a campaign of this strategy runs with (``CampaignOptions/guidance``):
    /// ``CoverageGuidance/coverage`` for `coverage`, none (independent runs) for the others.
    ///
    /// ```swift
    /// let options = CampaignOptions(seed: seed, runs: 1_000, jobs: 2, guidance: scenario.strategy.guidance)
    /// ```
    public var guidance: CoverageGuidance? { exploration.guidance }

    /// The strategy run `runIndex` of a campaign of this strategy runs under, which its replay
    /// commands and saved failures name: `random` for a `default` campaign's first
    /// ``randomRuns`` runs, else this strategy.
    ///
    /// ```swift
    /// ExplorationStrategy.default.effective(forRun: 0)      // .random
    /// ExplorationStrategy.default.effective(forRun: 5_000)  // .default: a coin run
    /// ```
    ///
    /// Contract: a function of the run index alone, so `--jobs` and `--shard` never change it.
    public func effective(forRun runIndex: Int) -> ExplorationStrategy {
        runIndex < randomRuns ? .random : self
    }

    /// The scenario key and option value.
    public var description: String { rawValue }

    /// One line for `bgsim list` and `bgsim help`.
    public var summary: String { exploration.summary }

    /// The names, for error messages: `random, swarm, default, exhaustive, coverage`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
