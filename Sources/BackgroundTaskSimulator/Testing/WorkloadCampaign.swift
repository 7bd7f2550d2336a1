public import DeterministicSimulation

/// A campaign over your own workload, from an XCTest or Swift Testing test: thousands of
/// randomized lifecycle traces on the simulated iOS, every invariant checked, failures shrunk.
///
/// ```swift
/// @Test func uploaderEndsItsTasks() {
///     let campaign = WorkloadCampaign(workload: WorkloadInfo(name: "uploader", summary: "uploads on exit") {
///         Uploader()
///     }, runs: 500)
///     let report = campaign.run()
///     #expect(report.passed, "\(report)")   // the description names each failing seed and its replay
/// }
/// ```
///
/// Contract: deterministic: the same campaign gives the same report (timing fields aside) in any
/// process and for any `jobs`. A failure names its run seed; ``replay(seed:)`` reruns exactly that
/// run with its trace, and ``replay(choices:)`` the shrunk one. Your workload must only use the
/// context it is given (simulated queues, drawn durations), never real threads or timers.
public struct WorkloadCampaign: Sendable {
    /// The code under test.
    public var workload: WorkloadInfo
    /// The iOS version family (budget, expiry lead, limits).
    public var profile: OSProfile
    /// How the app is driven.
    public var environment: EnvironmentConfig
    /// What is checked; by default every invariant that applies to the workload.
    public var invariants: [Invariant]
    /// Virtual time per run before the run settles.
    public var horizon: Duration
    /// How many runs.
    public var runs: Int
    /// The campaign seed; run `i` uses `seed.derive(index: i)`.
    public var seed: Seed
    /// Worker threads (changes speed, never results).
    public var jobs: Int
    /// Whether ``run()`` installs the crash banner's signal handler (default `true`).
    public var installsCrashHandler = true

    public init(
        workload: WorkloadInfo, profile: OSProfile = .ios17, environment: EnvironmentConfig = EnvironmentConfig(),
        invariants: [Invariant] = Invariant.all, horizon: Duration = .seconds(1_800), runs: Int = 1_000,
        seed: Seed = Seed(0x5eed), jobs: Int = 1
    ) {
        self.workload = workload
        self.profile = profile
        self.environment = environment
        self.invariants = invariants
        self.horizon = horizon
        self.runs = runs
        self.seed = seed
        self.jobs = jobs
    }

    /// The run specification every run of the campaign uses.
    public var spec: RunSpec {
        RunSpec(profile: profile, environment: environment, workload: workload, invariants: invariants,
                horizon: VirtualTime(microseconds: VirtualDuration(horizon).microseconds))
    }

    /// Runs the campaign: every run, then re-runs of the failures (nondeterminism check) and
    /// shrinking of the first failure of each invariant.
    ///
    /// A crash in workload code (a trap such as a force unwrap of nil) ends the test process, as
    /// any crash does, but first prints the run seed and the Swift call that replays it: the
    /// first `run()` installs bgsim's fatal-signal handler (``CrashSignals``) if nothing did
    /// (exit code 70); ``installsCrashHandler`` `false` leaves the process's handlers alone.
    public func run() -> WorkloadReport {
        let options = CampaignOptions(seed: seed, runs: max(1, runs), jobs: max(1, jobs))
        if installsCrashHandler { CrashSignals.installIfNeeded(exitCode: 70, trailer: Self.crashTrailer) }
        let result = Campaign.run(SimulationTarget(spec: spec), options: options, crashBanner: crashBanner)
        return WorkloadReport(result: result, workload: workload.name)
    }

    /// What a crash during one of this campaign's runs prints after the signal.
    public var crashBanner: CrashBanner {
        CrashBanner(run: "run seed {seed} of WorkloadCampaign \"\(workload.name)\"",
                    replay: "campaign.replay(seed: {seed})")
    }

    static let crashTrailer = "WorkloadCampaign: the test process ends with exit code 70 (a crash in workload code); "
        + "replay the run with the call above to debug it\n"


    /// Reruns one run exactly, keeping its trace (``RunOutcome/traceText`` prints it as
    /// `bgsim replay` does; ``RunOutcome/perfettoJSON`` opens in ui.perfetto.dev).
    public func replay(seed runSeed: Seed) -> RunOutcome {
        SimulationRunner.run(spec, choices: ChoiceSource(seed: runSeed), keepTrace: true)
    }

    /// ``replay(seed:)`` with the seed as a number, the way a report prints it:
    /// `campaign.replay(seed: 0x9e3779b97f4a7c15)` compiles with `import BackgroundTaskSimulator`
    /// alone.
    public func replay(seed runSeed: UInt64) -> RunOutcome {
        replay(seed: Seed(runSeed))
    }

    /// Reruns a recorded (usually shrunk) choice sequence, given as its `c1.` token.
    ///
    /// - Throws: ``ChoiceTokenError`` when the token is not one.
    public func replay(choices token: String) throws(ChoiceTokenError) -> RunOutcome {
        let sequence = try ChoiceSequence(token: token)
        return SimulationRunner.run(spec, choices: ChoiceSource(replaying: sequence), keepTrace: true)
    }
}
