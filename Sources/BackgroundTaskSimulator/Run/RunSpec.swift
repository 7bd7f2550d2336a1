public import DeterministicSimulation

/// Everything one run needs apart from its choices: the OS profile, the environment, the
/// workload, the invariants, and how long to run.
///
/// ```swift
/// let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: info,
///                    invariants: Invariant.all, horizon: .seconds(600))
/// let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(42)))
/// ```
///
/// Contract: a run draws environment actions until ``horizon``, then settles (no new actions;
/// the app is sent home) for at most ``settleLimit``, so every open task meets its budget;
/// ``maxSteps`` bounds the scheduler steps of a run that would never end.
public struct RunSpec: Sendable {
    public var profile: OSProfile
    public var environment: EnvironmentConfig
    public var workload: WorkloadInfo
    public var invariants: [Invariant]
    public var horizon: VirtualTime
    public var settleLimit: VirtualDuration
    public var maxSteps: Int
    /// How runs explore beyond the one environment mix (``ExplorationStrategy``): `random`
    /// (the default here, no extra draws) or, from a scenario's `campaign.strategy`, `swarm` or
    /// the `default` mix of both.
    public var exploration: ExplorationStrategy
    /// Whether runs count coverage (``RunOutcome/coverage``); a shrink's candidates do not
    /// (``SimulationTarget/checking(only:)``): nothing reads it there. Counting changes no draw.
    public var countsCoverage = true
    /// Whether runs compute their trace digest (``RunOutcome/digest``); a shrink's candidates do
    /// not (nothing reads it there; their digest is that of an empty trace). Hashing changes no
    /// draw.
    public var hashesTrace = true
    /// The most scheduler steps a run may take without waiting for time to pass before it is a
    /// busy loop (`no-busy-loop`) and stops (``DeterministicSimulation/Scheduler/busyLoopLimit``).
    /// Harness policy, not an iOS rule (iOS measures a spinning app in CPU time, C4.2): a correct
    /// app waits for something (a timer, a reply, a sleep) long before; the busiest correct
    /// scenario of this repository stays well under it (Invariants article).
    public var busyLoopLimit = 10_000

    public init(
        profile: OSProfile, environment: EnvironmentConfig, workload: WorkloadInfo, invariants: [Invariant],
        horizon: VirtualTime, settleLimit: VirtualDuration? = nil, maxSteps: Int = 1_000_000,
        exploration: ExplorationStrategy = .random
    ) {
        self.profile = profile
        self.environment = environment
        self.workload = workload
        self.invariants = invariants
        self.horizon = horizon
        let longest = max(profile.budget, profile.backgroundLaunchBudget, profile.processingRuntime)
        self.settleLimit = settleLimit ?? longest + .seconds(60)
        self.maxSteps = maxSteps
        self.exploration = exploration
    }
}

/// What one run produced.
public struct RunOutcome: Sendable {
    /// The timing-free digest of the run's trace.
    public var digest: TraceDigest
    /// How many events the trace has.
    public var eventCount: Int
    /// Every violation found, in time order.
    public var violations: [Violation]
    /// The trace, when the run kept it.
    public var trace: [TraceEntry<SimEvent>]
    /// The choices the run drew: replaying them gives the same run.
    public var choices: ChoiceSequence
    /// Virtual time at the end.
    public var endTime: VirtualTime
    /// Why the run stopped (the engine's ``RunStop``, shared with campaign totals and reports).
    public var stop: RunStop
    /// Scheduler steps run.
    public var steps: Int
    /// Draws that a replayed sequence could not supply (0 for a seeded run).
    public var fallbackCount: Int
    /// What the run exercised.
    public var coverage: Coverage

    /// The first violation of `invariant`, if any.
    public func firstViolation(of invariant: String) -> Violation? {
        violations.first { $0.invariant == invariant }
    }
}
