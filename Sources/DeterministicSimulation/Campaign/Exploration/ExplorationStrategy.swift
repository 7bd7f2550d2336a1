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
/// without exploration strategies.
public enum ExplorationStrategy: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Every run from the scenario's one mix of environment actions (uniform random testing).
    case random
    /// Swarm testing (Groce et al., ISSTA 2012): each run first draws which environment
    /// actions (user actions and faults alike) are enabled and their weights, then runs like
    /// `random` under that mix.
    case swarm
    /// The mix, and the strategy of a scenario without `campaign.strategy` and of `fuzz`
    /// without `--strategy`. A campaign of it is phased (``effective(forRun:)``): its first
    /// ``defaultRandomRuns`` runs are plain `random` runs that draw nothing extra (exactly the
    /// runs, failures and shrinks of a `random` campaign: shallow bugs are found there), and
    /// every later run first draws one coin (recorded like every choice): a `random` run or a
    /// `swarm` run, half and half. A single run of it (`bgsim replay --strategy default`, a
    /// ``RunSpec``) is a coin run. A coverage-guided share was measured and not adopted (the
    /// README's "Exploration strategies").
    case `default`
    /// Bounded exhaustive search (``ExhaustiveSearch``): every sequence of environment actions
    /// and scheduling choices up to a depth, deduplicated by a hash of the simulated state, for
    /// small workloads. Its runs draw nothing at random: a run is its choices.
    case exhaustive
    /// Coverage-guided (libFuzzer, AFL): after a first generation of fresh runs, most runs are
    /// mutants of a corpus of earlier runs that reached new coverage (``CoverageGuidance``);
    /// each run's own first draws are those of a `default` run.
    case coverage

    /// The share of `default` coin runs that are swarm runs.
    public static let defaultSwarmShare = 0.5

    /// How many runs a `default` campaign starts with as plain `random` runs (no coin). Every
    /// shipped shallow planted bug fails within its first runs under `random` (median run 1),
    /// so they keep today's first failure, shrink and pins; the deep bugs, which `random`
    /// reaches in fewer than 1 of 10,000 runs, lose at most this many of their 5,000-10,000.
    public static let defaultRandomRuns = 100

    /// How many runs, from run 0, a campaign of this strategy runs as `random` runs:
    /// ``defaultRandomRuns`` for `default`, 0 for the others.
    public var randomRuns: Int { self == .default ? Self.defaultRandomRuns : 0 }

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
    public var summary: String {
        switch self {
        case .random: "every run from the scenario's one mix of actions"
        case .swarm: "each run first draws which actions and faults are enabled, and their weights"
        case .default: "when a scenario names none: runs 0 to \(Self.defaultRandomRuns - 1) are random runs, each later run a random or a swarm run, half and half (drawn from its choices)"
        case .exhaustive: "every sequence of actions and scheduling choices up to --depth, deduplicated by state (no --runs)"
        case .coverage: "mutants of a corpus of runs that reached new coverage, evolved in generations of 100 runs"
        }
    }

    /// The names, for error messages: `random, swarm, default, exhaustive, coverage`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
