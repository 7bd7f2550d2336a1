public import DeterministicSimulation

/// A campaign over your own workload, from an XCTest or Swift Testing test: thousands of
/// randomized lifecycle traces on the simulated iOS, every invariant checked, failures shrunk.
///
/// ```swift
/// @Test func uploaderEndsItsTasks() async {
///     let campaign = WorkloadCampaign(workload: WorkloadInfo(name: "uploader", summary: "uploads on exit") {
///         Uploader()
///     }, runs: 500)
///     await campaign.expectNoViolations()   // BackgroundTaskSimulatorTesting: one issue per invariant
///     let report = campaign.run()            // or the report itself, outside a test
/// }
/// ```
///
/// Contract: deterministic: the same campaign gives the same report (timing fields aside) in any
/// process and for any `jobs`; the same as `bgsim fuzz` over a scenario file of the same
/// workload, profile, environment, runs, seed and strategy (one pipeline, ``ScenarioCampaign``). A failure names its run seed; ``replay(seed:)`` reruns exactly that
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
    /// Worker threads (changes speed, never results). A workload that uses Swift concurrency
    /// runs one run at a time in this process whatever this says: its actors in a `static let`
    /// are one per process (``ScenarioPlan/runsOneAtATime(_:)``); with ``isolation``, `jobs`
    /// child processes run its runs in parallel.
    public var jobs: Int
    /// The slice of the runs this campaign runs (default `.whole`), as `bgsim fuzz --shard K/N`:
    /// each shard runs the runs `i` with `i % N == K - 1`, each with its own run seed, so the
    /// shards of a CI matrix together run the whole campaign; ``ReportMerge/merge(_:names:)`` (or
    /// `bgsim merge`) joins their reports (``WorkloadReport/jsonText``) into the report of one
    /// unsharded campaign.
    public var shard: Shard = .whole
    /// Whether ``run()`` installs the crash banner's signal handler (default `true`).
    public var installsCrashHandler = true
    /// How the runs explore (default `.default`, as scenarios: the first 100 runs are random
    /// runs, later ones mix in swarm runs; `.exhaustive` searches to ``exhaustiveDepth``).
    public var strategy: ExplorationStrategy = .default
    /// The depth of an `.exhaustive` search (nil: ``ExhaustiveOptions/defaultDepth``).
    public var exhaustiveDepth: Int?
    /// Saved failures, replayed before the runs; new failures are saved there (nil, the
    /// default: none. ``InMemoryFailureStore`` for one process, ``DirectoryFailureStore`` to
    /// share `bgsim`'s `.bgsim/failures/`).
    public var failureStore: (any FailureStore)?
    /// Runs in child processes, so a crash or hang in workload code is a `no-crash` or `no-hang`
    /// finding and the test goes on: processes that re-run the calling test
    /// (`try .testProcesses()`, from `BackgroundTaskSimulatorTesting`), or your own command-line
    /// tool (``Isolation/init(executable:scenarioFile:)``). nil, the default: runs in the test
    /// process.
    public var isolation: Isolation?
    /// Wall-clock time a run may go without progress before it is a hang (nil: 60 s; `.zero`:
    /// no limit). In process a hang ends the test process after printing the run; isolated,
    /// it is a `no-hang` finding, and once a run has hung later runs get 20 times the slowest run
    /// that finished, at least 1 s, up to this.
    public var runTimeout: Duration?

    /// How isolated runs start: child processes that re-run the calling test
    /// (`try .testProcesses()`), or your tool.
    public struct Isolation: Sendable, Equatable {
        package enum Form: Sendable, Equatable {
            case tool(executable: String, scenarioFile: String)
            case testProcesses(TestRerun)
        }

        package var form: Form

        /// Children of your tool: `executable` is your tool (`BGSim.main(workloads:)`), and
        /// `scenarioFile` a scenario file naming this campaign's workload, profile and
        /// environment, which the children load (they cannot receive a workload made in code).
        public init(executable: String, scenarioFile: String) {
            form = .tool(executable: executable, scenarioFile: scenarioFile)
        }

        /// Children that re-run the test (see ``TestRerun``).
        package init(rerunning test: TestRerun) {
            form = .testProcesses(test)
        }

        /// Your tool (nil for test processes).
        public var executable: String? {
            if case .tool(let executable, _) = form { executable } else { nil }
        }

        /// The scenario file your tool's children load (nil for test processes).
        public var scenarioFile: String? {
            if case .tool(_, let file) = form { file } else { nil }
        }
    }

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

    /// The run specification of one run outside the campaign (a `random` run).
    public var spec: RunSpec { scenario.runSpec }

    /// The campaign as a scenario made in code: what ``run()`` gives ``ScenarioCampaign``, the
    /// pipeline `bgsim fuzz` and `bgsim check` use.
    public var scenario: Scenario {
        let variant = WorkloadCatalog.Variant(workload: workload.name, variant: "swift-api", bugPattern: nil,
                                              expectedViolation: nil, info: workload, isBuiltIn: false)
        let campaign = Scenario.CampaignDefaults(
            runs: max(1, runs), seed: seed, horizon: VirtualTime(microseconds: VirtualDuration(horizon).microseconds),
            maxStepsPerRun: 1_000_000, strategy: strategy, namesStrategy: false, depth: exhaustiveDepth)
        return Scenario(name: workload.name, file: isolation?.scenarioFile ?? "(Swift API)", summary: workload.summary,
                        workload: variant, profile: profile, environment: environment, campaign: campaign,
                        invariants: invariants, expectation: .pass)
    }

    /// Runs the campaign through ``ScenarioCampaign``: the saved failures first, every run, then
    /// re-runs of the failures (nondeterminism check) and shrinking of the first failure of each
    /// invariant; new failures go to the store.
    ///
    /// A crash in workload code (a trap such as a force unwrap of nil) in process ends the test
    /// process, as any crash does, but first prints the run seed and the Swift call that replays
    /// it: the first `run()` installs the fatal-signal handler (``CrashSignals``) if nothing did
    /// (exit code 70); ``installsCrashHandler`` `false` leaves the process's handlers alone.
    /// With ``isolation`` it is a `no-crash` finding instead.
    ///
    /// In a child test process started to serve this campaign (`.testProcesses()`), `run()`
    /// serves the parent's runs and ends the process; any other campaign of the test runs
    /// nothing there (the child exists to serve one campaign) and gives an empty report.
    ///
    /// Store errors (an unreadable or malformed saved failure) are reported as a failed report
    /// naming the file, never a crash.
    public func run() -> WorkloadReport {
        if let asked = TestRerun.asked {
            guard case .testProcesses(let test)? = isolation?.form, asked.key == test.campaignKey(scenario) else {
                return nothingRun()
            }
            TestRerun.serve(scenario, strategy: asked.strategy)
        }
        if installsCrashHandler { CrashSignals.installIfNeeded(exitCode: 70, wording: Self.wording) }
        let scenario = self.scenario
        var plan = ScenarioPlan(for: scenario, jobs: max(1, jobs))
        plan.options.shard = shard
        plan.exhaustiveDepth = exhaustiveDepth
        plan.failureStore = failureStore
        plan.toolVersion = "swift-api"
        plan.wording = Self.wording
        plan.runTimeoutSeconds = runTimeoutSeconds
        plan.crashBanner = { run in WorkloadReport.banner(workload: run.name, strategy: run.strategy) }
        switch isolation?.form {
        case .tool(let executable, _)?:
            plan.isolation = .childProcesses(executable: executable)
            plan.wording.workerStartAdvice = "; is \(executable) a tool built with BGSimCommands "
                + "(BGSim.main(workloads:)) that knows this workload?"
        case .testProcesses(let test)?:
            test.isolate(&plan)
        case nil:
            break
        }
        do {
            return WorkloadReport(outcome: try ScenarioCampaign.run(scenario, plan: plan))
        } catch {
            return WorkloadReport(storeError: error, workload: workload.name, options: plan.options)
        }
    }

    /// The report of a campaign that ran no run (in a test process serving another campaign).
    private func nothingRun() -> WorkloadReport {
        var plan = ScenarioPlan(for: scenario)
        plan.options.runs = 0
        do {
            return WorkloadReport(outcome: try ScenarioCampaign.run(scenario, plan: plan))
        } catch {
            return WorkloadReport(storeError: error, workload: workload.name, options: plan.options)
        }
    }

    /// What a crash during one of this campaign's runs prints after the signal.
    public var crashBanner: CrashBanner { WorkloadReport.banner(workload: workload.name, strategy: .random) }

    /// ``runTimeout`` in seconds.
    private var runTimeoutSeconds: Double? {
        runTimeout.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
    }

    /// The words of the crash banner and hang watchdog in a test process.
    static let wording = CrashWording(
        program: "WorkloadCampaign", timeoutSetting: "runTimeout",
        hangAdvice: "; raise runTimeout if one job of your code takes this long",
        crashTrailer: "WorkloadCampaign: the test process ends with exit code 70 (a crash in workload code); "
            + "replay the run with the call above to debug it\n")

    /// Reruns one run exactly, keeping its trace (``RunOutcome/traceText`` prints it as
    /// `bgsim replay` does; ``RunOutcome/perfettoJSON`` opens in ui.perfetto.dev). A run seed of
    /// this campaign is rerun under the strategy the campaign ran it with (a `default`
    /// campaign's first 100 runs are `random` runs, later ones coin runs), which the seed tells
    /// (``Scenario/forRunSeed(_:)``); any other seed as a `random` run.
    ///
    /// A replay is guarded as the campaign's runs are in process: a crash prints the replay it
    /// happened in (exit code 70, unless ``installsCrashHandler`` is `false`), and a replay of a
    /// run that hangs (no progress for ``runTimeout``, 60 s when nil; `.zero`: no limit) prints
    /// it and ends the test process with exit code 124, rather than spinning on after a test
    /// runner's timeout killed its parent.
    public func replay(seed runSeed: Seed) -> RunOutcome {
        let scenario = scenario.forRunSeed(runSeed)
        return guardedReplay(seed: runSeed, strategy: scenario.runStrategy) {
            ReplayRecipe(scenario: scenario, source: .seed(runSeed)).run()
        }
    }

    /// ``replay(seed:)`` under a strategy you name (a report's replay call names it when it is
    /// not `random`), for a seed that is not one of this campaign's runs.
    public func replay(seed runSeed: UInt64, strategy: ExplorationStrategy) -> RunOutcome {
        guardedReplay(seed: Seed(runSeed), strategy: strategy) { scenario.replay(seed: runSeed, strategy: strategy) }
    }

    /// ``replay(choices:)`` of a run of another strategy (as the report names it).
    ///
    /// - Throws: ``ChoiceTokenError`` when the token is not one.
    public func replay(choices token: String, strategy: ExplorationStrategy) throws(ChoiceTokenError) -> RunOutcome {
        let replay = "try campaign.replay(choices: \"\(token)\", strategy: .\(strategy))"
        return try guardedReplay(of: "the choices \(token)", replay: replay) { () throws(ChoiceTokenError) in
            try scenario.replay(choices: token, strategy: strategy)
        }
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
        try guardedReplay(of: "the choices \(token)", replay: "try campaign.replay(choices: \"\(token)\")") {
            () throws(ChoiceTokenError) in try scenario.replay(choices: token)
        }
    }

    /// Runs `body`, the replay of `runSeed` under `strategy`, guarded (see ``replay(seed:)``).
    private func guardedReplay(seed runSeed: Seed, strategy: ExplorationStrategy, _ body: () -> RunOutcome) -> RunOutcome {
        let strategyText = strategy == .random ? "" : ", strategy: .\(strategy)"
        return guardedReplay(of: "run seed \(CrashBanner.seedPlaceholder)", seed: runSeed,
                             replay: "campaign.replay(seed: \(CrashBanner.seedPlaceholder)\(strategyText))", body)
    }

    /// Runs `body`, the replay of `what` (which `replay` reruns), as the campaign's runs are in
    /// process: a crash or a hang during it prints them (see ``replay(seed:)``).
    private func guardedReplay<Failure: Error>(
        of what: String, seed: Seed = Seed(0), replay: String, _ body: () throws(Failure) -> RunOutcome
    ) throws(Failure) -> RunOutcome {
        if installsCrashHandler { CrashSignals.installIfNeeded(exitCode: 70, wording: Self.wording) }
        let banner = CrashBanner(run: "the replay of \(what) of WorkloadCampaign \"\(workload.name)\"", replay: replay)
        let result: Result<RunOutcome, Failure> = Campaign.replaying(
            banner: banner, seed: seed, runTimeoutSeconds: runTimeoutSeconds ?? ScenarioPlan.defaultRunTimeoutSeconds,
            hangExitCode: ScenarioPlan.defaultHangExitCode) {
            do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
