public import DeterministicSimulation
import Foundation

/// The scenario campaign: one scenario and one plan give an outcome. The saved failures are
/// replayed first, then the campaign runs (the scenario's strategy: a `default` campaign's first
/// runs are random runs, an `exhaustive` one a bounded search), the scenario's expectation judges
/// it, and new failures are saved. Every door (`bgsim fuzz`, `bgsim check`, ``WorkloadCampaign``)
/// goes through here; each only presents the outcome its way.
///
/// ```swift
/// var plan = ScenarioPlan(for: scenario)
/// plan.failureStore = DirectoryFailureStore(directory: ".bgsim/failures")
/// let outcome = try ScenarioCampaign.run(scenario, plan: plan)
/// outcome.verdict.isMissed                           // false: the expectation was met
/// outcome.failures.map { $0.replay.source }          // [.seed(0x…)], the runs that reproduce them
/// ```
///
/// Contract: deterministic like ``Campaign``: the same scenario and plan give the same result,
/// verdict and recipes (timing aside) for every `jobs`, isolation and run timeout.
///
/// - Throws: ``FailureStoreError`` when the store cannot be read or written.
public enum ScenarioCampaign {
    public static func run(_ scenario: Scenario, plan: ScenarioPlan) throws(FailureStoreError) -> ScenarioOutcome {
        guard ScenarioPlan.runsOneAtATime(scenario), case .inProcess = plan.isolation else {
            return try runNow(scenario, plan: plan)
        }
        // Two such campaigns at once (parallel tests) would run two runs at once too.
        inProcessSwiftConcurrency.lock()
        defer { inProcessSwiftConcurrency.unlock() }
        return try runNow(scenario, plan: plan)
    }

    /// Held by an in-process campaign whose runs run one at a time in a process
    /// (``ScenarioPlan/runsOneAtATime(_:)``), for its whole length.
    private static let inProcessSwiftConcurrency = NSLock()

    private static func runNow(_ scenario: Scenario, plan: ScenarioPlan) throws(FailureStoreError) -> ScenarioOutcome {
        let engine = enginePlan(scenario, plan)
        var saved = SavedFailureReplay()
        if let store = plan.failureStore {
            var children: [() -> Void] = []
            defer { for finish in children { finish() } }
            var isolated: ((Scenario) -> any CampaignTarget)?
            if case .childProcesses(let executable) = plan.isolation {
                // A saved crash replayed in process would end it: isolated campaigns replay in children.
                let timeout = engine.runTimeoutSeconds.flatMap { $0 > 0 ? $0 : nil }
                isolated = { run in
                    let target = IsolatedTarget(local: SimulationTarget(spec: run.runSpec), executable: executable,
                                                arguments: plan.workerArguments(run),
                                                environment: plan.workerEnvironment(run), runTimeoutSeconds: timeout,
                                                wording: plan.wording)
                    children.append { target.finishChildren() }
                    return target
                }
            }
            saved = try store.replay(scenario, dropsFixed: plan.maintainsStore, isolated: isolated)
        }
        let result = Campaign.run(phases(of: scenario, plan: plan), plan: engine)
        let verdict = scenario.expectation.verdict(for: result, invariants: scenario.invariants.map(\.id),
                                                   savedFailures: saved.stillFailing.map(\.invariant),
                                                   requiredProbes: scenario.requiredProbes)
        var added: [SavedFailure] = []
        if plan.maintainsStore, let store = plan.failureStore {
            added = try store.save(result, of: scenario, keeping: saved, toolVersion: plan.toolVersion)
        }
        return ScenarioOutcome(scenario: scenario, result: result, verdict: verdict, saved: saved, added: added)
    }

    /// The engine's plan for `scenario`. The runs of a workload that uses Swift concurrency run
    /// one at a time in one process (``ScenarioPlan/runsOneAtATime(_:)``).
    static func enginePlan(_ scenario: Scenario, _ plan: ScenarioPlan) -> CampaignPlan {
        var engine = CampaignPlan(options: plan.options)
        if ScenarioPlan.runsOneAtATime(scenario), case .inProcess = plan.isolation { engine.options.jobs = 1 }
        if scenario.strategy == .exhaustive {
            engine.exhaustiveDepth = plan.exhaustiveDepth ?? scenario.campaign.depth ?? ExhaustiveOptions.defaultDepth
        }
        engine.isolation = plan.isolation
        engine.runTimeoutSeconds = plan.runTimeoutSeconds ?? scenario.campaign.runTimeoutSeconds
            ?? ScenarioPlan.defaultRunTimeoutSeconds
        engine.hangExitCode = plan.hangExitCode
        engine.wording = plan.wording
        engine.progress = plan.progress
        engine.isCancelled = plan.isCancelled
        return engine
    }

    /// The campaign's phases: each phase's runs (``Scenario/forRun(_:)``) on its own target, with
    /// its crash banner and worker arguments; an exhaustive search's one phase, the scenario's.
    static func phases(of scenario: Scenario, plan: ScenarioPlan) -> CampaignPhases {
        func phase(_ run: Scenario) -> CampaignPhase {
            CampaignPhase(SimulationTarget(spec: run.runSpec), crashBanner: plan.crashBanner?(run),
                          workerArguments: plan.workerArguments(run), workerEnvironment: plan.workerEnvironment(run))
        }
        guard scenario.strategy != .exhaustive else { return CampaignPhases(phase(scenario)) }
        let randomRuns = scenario.strategy.randomRuns
        return CampaignPhases(first: randomRuns, use: phase(scenario.forRun(0)), then: phase(scenario.forRun(randomRuns)))
    }
}

/// How to run one scenario's campaign: the engine's options and isolation, plus what a
/// scenario campaign adds (its failure store, its crash banners and worker arguments, made per
/// phase from the phase's scenario).
///
/// ```swift
/// var plan = ScenarioPlan(for: scenario)          // the scenario's runs and seed, all cores
/// plan.options.runs = 200
/// plan.failureStore = InMemoryFailureStore()
/// ```
public struct ScenarioPlan: Sendable {
    /// The default run timeout, in seconds: far above any job's time (microseconds), so only a
    /// run that never ends reaches it. It times the gap between two steps of a run, not the run.
    /// Not 10 s: on a 2-core machine at load 14, a threaded run of 0.1 s (chat-outbox, 3,805
    /// events, a thread handoff every few events) took over 10 s, each handoff waiting for a CPU.
    public static let defaultRunTimeoutSeconds = 60.0

    public var options: CampaignOptions
    /// The depth of an exhaustive scenario's search (nil: its `campaign.depth`, else the default).
    public var exhaustiveDepth: Int?
    /// Where the runs happen (child processes: ``workerArguments`` says how to start each).
    public var isolation: CampaignPlan.Isolation = .inProcess
    /// The arguments that make the isolation's executable a worker for one phase's scenario
    /// (default: `ScenarioWorker`'s, which a tool built with `BGSimCommands` serves).
    public var workerArguments: @Sendable (Scenario) -> [String] = ScenarioWorker.arguments(for:)
    /// Environment entries (`NAME=value`) a worker for one phase's scenario gets beside this
    /// process's (default: none; a test process re-running its test learns the phase from them).
    public var workerEnvironment: @Sendable (Scenario) -> [String] = { _ in [] }
    /// Wall-clock seconds a run may go without progress (0: none; nil: the scenario's
    /// `campaign.runTimeoutSeconds`, else ``defaultRunTimeoutSeconds``).
    public var runTimeoutSeconds: Double?
    public var hangExitCode: Int32 = Self.defaultHangExitCode
    /// The exit code a hang in process ends the process with, unless a plan says otherwise: 124,
    /// as `timeout(1)`'s.
    public static let defaultHangExitCode: Int32 = 124
    /// The front end's words for crashes and hangs.
    public var wording = CrashWording()
    /// What an in-process crash during one phase's runs prints (nil: no banner).
    public var crashBanner: (@Sendable (Scenario) -> CrashBanner)?
    /// The saved failures, replayed first (nil: none).
    public var failureStore: (any FailureStore)?
    /// Whether the campaign maintains the store: removes saved failures that no longer fail and
    /// saves new ones (`bgsim fuzz`); otherwise it only reads (`bgsim check`).
    public var maintainsStore = true
    /// The version saved failures record.
    public var toolVersion = "0.1.0"
    public var progress: (@Sendable (CampaignProgress) -> Void)?
    public var isCancelled: @Sendable () -> Bool = { false }

    /// Whether `scenario`'s runs must not run at once in one process: its workload uses Swift
    /// concurrency, whose actors in a `static let` (a singleton actor, a `@globalActor`) are one
    /// per process. Two runs executing at once would share one: an actor's turn in one run runs
    /// the other run's jobs on its thread, against the other run's simulated world, which
    /// crashes or corrupts both. In process, such a campaign runs with one job whatever `jobs`
    /// says (results are the same for every `jobs`), and waits for another such campaign in the
    /// process (parallel tests) to end; in child processes (``isolation``) each child runs its
    /// runs one at a time, so `jobs` children run in parallel.
    public static func runsOneAtATime(_ scenario: Scenario) -> Bool {
        scenario.workload.info.usesAsync
    }

    /// The plan of `scenario`'s own campaign: its runs and seed, its strategy's guidance, `jobs`.
    public init(for scenario: Scenario, jobs: Int = 1) {
        options = CampaignOptions(seed: scenario.campaign.seed, runs: scenario.campaign.runs, jobs: jobs,
                                  guidance: scenario.strategy.guidance)
    }

    public init(options: CampaignOptions) {
        self.options = options
    }
}
