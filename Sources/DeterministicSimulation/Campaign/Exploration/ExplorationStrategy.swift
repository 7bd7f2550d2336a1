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
    /// The mix: each run first draws (one coin, recorded like every choice) whether it is a
    /// `random` run or a `swarm` run, half and half. Named `default` as the strategy to use; a
    /// scenario without `campaign.strategy` still runs `random`, so that existing seeds and
    /// shrunk tokens keep their runs (making `default` implicit, and giving it a coverage-guided
    /// share, were measured and not done: see the README's "Exploration strategies").
    case `default`
    /// Bounded exhaustive search (``ExhaustiveSearch``): every sequence of environment actions
    /// and scheduling choices up to a depth, deduplicated by a hash of the simulated state, for
    /// small workloads. Its runs draw nothing at random: a run is its choices.
    case exhaustive
    /// Coverage-guided (libFuzzer, AFL): after a first generation of fresh runs, most runs are
    /// mutants of a corpus of earlier runs that reached new coverage (``CoverageGuidance``);
    /// each run's own first draws are those of a `default` run.
    case coverage

    /// The share of `default` runs that are swarm runs.
    public static let defaultSwarmShare = 0.5

    /// The scenario key and option value.
    public var description: String { rawValue }

    /// One line for `bgsim list` and `bgsim help`.
    public var summary: String {
        switch self {
        case .random: "every run from the scenario's one mix of actions"
        case .swarm: "each run first draws which actions and faults are enabled, and their weights"
        case .default: "each run is a random or a swarm run, half and half (drawn from the run's choices)"
        case .exhaustive: "every sequence of actions and scheduling choices up to --depth, deduplicated by state (no --runs)"
        case .coverage: "mutants of a corpus of runs that reached new coverage, evolved in generations of 100 runs"
        }
    }

    /// The names, for error messages: `random, swarm, default, exhaustive, coverage`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
