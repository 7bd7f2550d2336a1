/// Everything a campaign is asked to do besides its targets: the runs (seed, count, jobs, shard,
/// guidance, shrinking: ``CampaignOptions``), an exhaustive search in their place, where the runs
/// happen (this process or child processes), the run timeout, and the front end's words for a
/// crash or a hang. ``Campaign/run(_:plan:)`` decides the rest: phases, isolation, crash slots,
/// the watchdog.
///
/// ```swift
/// var plan = CampaignPlan(options: CampaignOptions(seed: Seed(0x2a), runs: 1_000, jobs: 2))
/// plan.runTimeoutSeconds = 60
/// plan.isolation = .childProcesses(executable: "/proc/self/exe")
/// let phases = CampaignPhases(first: 100, use: CampaignPhase(randomTarget, workerArguments: ["_worker", "a.json", "random"]),
///                             then: CampaignPhase(mixTarget, workerArguments: ["_worker", "a.json"]))
/// let result = Campaign.run(phases, plan: plan)
/// ```
///
/// Contract: the plan changes what a crash or a hang does and how fast the campaign goes, never
/// the results of runs that neither crash nor hang: the same targets and options give the same
/// result whatever ``isolation``, ``runTimeoutSeconds`` or ``wording`` say.
public struct CampaignPlan: Sendable {
    /// Seed, runs, jobs, shard, guidance and shrinking.
    public var options: CampaignOptions
    /// A bounded exhaustive search to this depth in place of seeded runs (nil: seeded runs). It
    /// runs on the last phase's target, in this process, and is not sharded.
    public var exhaustiveDepth: Int?
    /// Where the runs happen.
    public var isolation: Isolation = .inProcess
    /// Wall-clock seconds a run may go without progress before it is called a hang; nil or 0:
    /// no limit. In process the watchdog then ends the process with ``hangExitCode`` (only
    /// where ``CrashSignals`` is installed); isolated, the hang is a `no-hang` finding.
    public var runTimeoutSeconds: Double?
    /// The exit code after an in-process hang banner.
    public var hangExitCode: Int32 = 124
    /// The front end's words for crash and hang messages of isolated runs (``CrashWording``).
    public var wording = CrashWording()
    /// Called on the calling thread about 4 times a second at most.
    public var progress: (@Sendable (CampaignProgress) -> Void)?
    /// Polled between runs; once true no run starts and failures are not shrunk.
    public var isCancelled: @Sendable () -> Bool = { false }

    /// Where a campaign's runs happen.
    public enum Isolation: Sendable, Equatable {
        /// In this process: a crash or hang ends it, after the phase's ``CampaignPhase/crashBanner``.
        case inProcess
        /// In child processes of `executable`, started with each phase's
        /// ``CampaignPhase/workerArguments``: a crash or hang is a finding and the campaign goes on.
        case childProcesses(executable: String)
    }

    public init(options: CampaignOptions) {
        self.options = options
    }
}

/// One phase of a campaign: the target its runs use, what an in-process crash during them
/// prints, and the arguments that make a child process serve the same target.
///
/// ```swift
/// CampaignPhase(SimulationTarget(spec: spec), crashBanner: banner, workerArguments: ["_worker", "/abs/a.json"])
/// ```
public struct CampaignPhase: Sendable {
    public var target: any CampaignTarget
    /// Printed by a crash or hang in process during the phase's runs (nil: no banner).
    public var crashBanner: CrashBanner?
    /// The arguments of ``CampaignPlan/Isolation/childProcesses(executable:)``'s executable that
    /// make it an isolated worker (``IsolatedWorker``) for this phase's target.
    public var workerArguments: [String]
    /// Environment entries (`NAME=value`) added to a worker's, for an executable that learns
    /// what to serve from its environment (a test process re-running the test that started it).
    public var workerEnvironment: [String]

    public init(_ target: some CampaignTarget, crashBanner: CrashBanner? = nil, workerArguments: [String] = [],
                workerEnvironment: [String] = []) {
        self.target = target
        self.crashBanner = crashBanner
        self.workerArguments = workerArguments
        self.workerEnvironment = workerEnvironment
    }
}

/// A campaign's phases by run index: one phase for every run, or (the `default` exploration
/// strategy) one for the first runs and another for the rest.
///
/// ```swift
/// CampaignPhases(CampaignPhase(target))                                  // one phase
/// CampaignPhases(first: 100, use: CampaignPhase(random), then: CampaignPhase(mix))
/// ```
///
/// Contract: a function of the run index alone, never of the shard, the jobs or the order runs
/// finish in (see ``RunPhases``).
public struct CampaignPhases: Sendable {
    let phases: RunPhases<CampaignPhase>

    public init(_ phase: CampaignPhase) { phases = RunPhases(phase) }

    public init(first runs: Int, use early: CampaignPhase, then late: CampaignPhase) {
        phases = RunPhases(first: runs, use: early, then: late)
    }
}
