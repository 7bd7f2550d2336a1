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

    /// The campaign settings a scenario carries: `bgsim fuzz` flags override them.
    public struct CampaignDefaults: Sendable, Equatable {
        public var runs: Int
        public var seed: Seed
        public var horizon: VirtualTime
        public var maxStepsPerRun: Int
        /// The wall-clock budget of one run (`campaign.runTimeoutSeconds`), for a scenario whose
        /// planted bug is a hang; nil: the command's `--run-timeout` (60 s by default).
        public var runTimeoutSeconds: Double? = nil
    }

    /// What a campaign over the scenario must show (the CI gate, `bgsim check`).
    public enum Expectation: Sendable, Equatable, CustomStringConvertible {
        /// No invariant may be violated.
        case pass
        /// The planted bug must be found: this invariant violated in at least one run.
        case violation(String)

        public var description: String {
            switch self {
            case .pass: "pass"
            case .violation(let id): "violation \(id)"
            }
        }
    }

    /// The run specification for one run of this scenario.
    public var runSpec: RunSpec {
        RunSpec(profile: profile, environment: environment, workload: workload.info, invariants: invariants,
                horizon: campaign.horizon, maxSteps: campaign.maxStepsPerRun)
    }
}
