public import DeterministicSimulation

/// One case worth running: a workload variant on an OS profile, in an environment, with a
/// campaign budget, the invariants to check, and what the campaign must find.
///
/// ```swift
/// let scenario = try ScenarioLoader.load(file: "Scenarios/download-manager-p1-ios17.json")
/// print(scenario.expectation)     // violation every-begin-ended
/// let spec = scenario.runSpec
/// ```
///
/// Contract: a loaded scenario is fully validated: its names exist, its numbers are in range.
/// The file format is documented in `Scenarios/README.md`.
public struct Scenario: Sendable {
    public var name: String
    /// The path it was loaded from, as given.
    public var file: String
    public var summary: String
    public var workload: WorkloadCatalog.Variant
    public var profile: OSProfile
    public var environment: EnvironmentConfig
    public var campaign: CampaignDefaults
    public var invariants: [Invariant]
    public var expectation: Expectation
    /// Probes the campaign must hit (`"requiredProbes"`; `WorkloadContext.probe(_:)`): a campaign
    /// that never reaches one misses its expectation, whatever it found.
    public var requiredProbes: [String] = []
    /// The exploration strategy given on the command line (`--strategy`), which replaces
    /// `campaign.strategy` for this campaign; replay commands then name it.
    public var strategyOverride: ExplorationStrategy? = nil

    /// The exploration strategy runs of this scenario use: ``strategyOverride``, else the file's.
    public var strategy: ExplorationStrategy { strategyOverride ?? campaign.strategy }

    /// The option replay commands must carry: ` --strategy X` when the command line overrode the
    /// file's strategy with another, and always for a run of a phased campaign (``forRun(_:)``,
    /// whose runs are of two strategies), else empty.
    public var strategyArgument: String {
        guard let override = strategyOverride,
              override != campaign.strategy || campaign.strategy.randomRuns > 0 else { return "" }
        return " --strategy \(override)"
    }

    /// The scenario as run `runIndex` of its campaign runs it: for a phased strategy (`default`:
    /// the first ``ExplorationStrategy/defaultRandomRuns`` runs are `random` runs) its strategy
    /// replaced by the run's effective one, which its replay commands then name; else itself.
    ///
    /// ```swift
    /// scenario.forRun(3).strategy        // .random: one of a default campaign's first runs
    /// scenario.forRun(3).strategyArgument // " --strategy random"
    /// ```
    public func forRun(_ runIndex: Int) -> Scenario {
        guard strategy.randomRuns > 0 else { return self }
        var run = self
        run.strategyOverride = strategy.effective(forRun: runIndex)
        return run
    }

    /// The scenario as its campaign runs the run whose seed is `runSeed` (``forRun(_:)`` of that
    /// run's index, which the seed gives: ``DeterministicSimulation/Seed/runIndex(of:)``), so a
    /// replay by seed alone reruns a `default` campaign's coin runs as coin runs; itself when a
    /// strategy is set (``strategyOverride``), the strategy is not phased, or the seed is not one
    /// of the campaign's (another `--seed` was given to the campaign).
    ///
    /// ```swift
    /// scenario.forRunSeed(scenario.campaign.seed.derive(index: 500)).strategy   // .default
    /// ```
    ///
    /// Contract: a seed counts as the campaign's when its index is below 2^32 (a seed of
    /// another campaign is one with a chance of 2^-32).
    public func forRunSeed(_ runSeed: Seed) -> Scenario {
        guard strategyOverride == nil, strategy.randomRuns > 0 else { return self }
        let index = campaign.seed.runIndex(of: runSeed)
        guard index < 1 << 32 else { return self }
        return forRun(Int(index))
    }

    /// The required probes the campaign's coverage never counted, in the scenario's order.
    ///
    /// ```swift
    /// scenario.missingProbes(in: result.coverage)   // ["retry-after-expiry"]: never reached
    /// ```
    public func missingProbes(in coverage: Coverage) -> [String] {
        let hit = coverage.probes.filter { $0.count > 0 }.map(\.name)
        return requiredProbes.filter { !hit.contains($0) }
    }

    /// The campaign settings a scenario carries: `bgsim fuzz` flags override them.
    public struct CampaignDefaults: Sendable, Equatable {
        /// How many runs a campaign may have: `campaign.runs` in a scenario file and
        /// `bgsim fuzz --runs` take the same range.
        public static let runsRange = 1...100_000_000

        public var runs: Int
        public var seed: Seed
        public var horizon: VirtualTime
        public var maxStepsPerRun: Int
        /// How long one run may go without progress, in wall-clock seconds
        /// (`campaign.runTimeoutSeconds`), for a scenario whose planted bug is a hang; nil: the
        /// command's `--run-timeout` (60 s by default).
        public var runTimeoutSeconds: Double? = nil
        /// How the campaign explores (`campaign.strategy`): `default` when the file does not say
        /// (its first ``ExplorationStrategy/defaultRandomRuns`` runs are exactly `random`'s, so
        /// shallow bugs are found, shrunk and pinned as before; later runs mix in swarm runs);
        /// `bgsim fuzz --strategy` and `check --strategy` override it.
        public var strategy: ExplorationStrategy = .default
        /// Whether the file names its strategy (`campaign.strategy`). A single run of a file that
        /// does not (``runSpec``, `bgsim replay` without `--strategy`) is a `random` run, as it
        /// was before `default` became the default, so replay commands printed then still
        /// reproduce their runs.
        public var namesStrategy = false
        /// The depth of an exhaustive search (`campaign.depth`, only with `strategy`
        /// `exhaustive`); nil: ``ExhaustiveOptions/defaultDepth``. `bgsim fuzz --depth` overrides it.
        public var depth: Int? = nil
    }

    /// What a campaign over the scenario must show (`bgsim check` and `bgsim fuzz` judge by it):
    /// `.pass`, or `.violation(id)` for a planted bug.
    public typealias Expectation = CampaignExpectation

    /// The run specification for one run of this scenario, under ``runStrategy``.
    public var runSpec: RunSpec {
        RunSpec(profile: profile, environment: environment, workload: workload.info, invariants: invariants,
                horizon: campaign.horizon, maxSteps: campaign.maxStepsPerRun, exploration: runStrategy)
    }

    /// The strategy of one run of this scenario outside a campaign (``runSpec``, `bgsim replay`):
    /// ``strategyOverride``, else the strategy the file names (a single run of `default` draws
    /// the coin), else `random`, the runs of a file without `campaign.strategy` before `default`
    /// became its campaign's strategy. A campaign's runs use ``forRun(_:)``, which sets it.
    public var runStrategy: ExplorationStrategy {
        strategyOverride ?? (campaign.namesStrategy ? campaign.strategy : campaign.strategy.effective(forRun: 0))
    }
}
