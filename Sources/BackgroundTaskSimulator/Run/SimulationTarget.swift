public import DeterministicSimulation

/// A campaign target made of a run specification: what `bgsim fuzz` and the Swift API run.
///
/// ```swift
/// let target = SimulationTarget(spec: scenario.runSpec)
/// let result = Campaign.run(target, options: CampaignOptions(seed: Seed(7), runs: 1_000, jobs: 2))
/// ```
///
/// Contract: stateless and `Sendable`: every run builds its own device, so runs on different
/// threads share nothing (PITFALLS 5).
public struct SimulationTarget: CampaignTarget {
    public let spec: RunSpec

    public init(spec: RunSpec) { self.spec = spec }

    public func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        verdict(SimulationRunner.run(spec, choices: choices, keepTrace: keepTrace), overBudget: false)
    }

    /// The budget is in scheduler steps: the run's `maxSteps` is lowered to it, and a run that
    /// reaches the lowered cap is over budget.
    public func run(choices: ChoiceSource, keepTrace: Bool, costBudget: Int) -> RunVerdict {
        guard costBudget < spec.maxSteps else { return run(choices: choices, keepTrace: keepTrace) }
        var budgeted = spec
        budgeted.maxSteps = max(0, costBudget)
        let outcome = SimulationRunner.run(budgeted, choices: choices, keepTrace: keepTrace)
        // A busy loop stops the run as at its step limit, but within budget: it is a finding.
        let busyLoop = outcome.violations.contains { $0.invariant == "no-busy-loop" }
        return verdict(outcome, overBudget: outcome.stop == .stepLimit && !busyLoop)
    }

    /// The same runs with only `invariant` checked, no coverage counted and no digest computed,
    /// for a shrink's candidates (the other checkers, the counters and the hash observe every
    /// event and only watch).
    /// `no-data-race` stays when checked: it turns the race detector on, whose access events are
    /// part of the run. Contract: as ``DeterministicSimulation/CampaignTarget/checking(only:)``.
    public func checking(only invariant: String) -> any CampaignTarget {
        guard spec.invariants.contains(where: { $0.id == invariant }) else { return self }
        var narrowed = spec
        narrowed.invariants = spec.invariants.filter { $0.id == invariant || $0.id == "no-data-race" }
        narrowed.countsCoverage = false
        narrowed.hashesTrace = false
        return SimulationTarget(spec: narrowed)
    }

    private func verdict(_ outcome: RunOutcome, overBudget: Bool) -> RunVerdict {
        RunVerdict(
            digest: outcome.digest, eventCount: outcome.eventCount, simulatedTime: outcome.endTime,
            failures: outcome.violations,
            trace: outcome.trace.map { TraceLine(time: $0.time, name: $0.event.name, fields: $0.event.fields, thread: $0.thread) },
            coverage: outcome.coverage, stop: outcome.stop, cost: outcome.steps, overBudget: overBudget)
    }
}
