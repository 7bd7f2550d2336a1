public import DeterministicSimulation

/// A planted-bug scenario's first failure, as `fuzz` and `check` find it, and its shrink.
///
/// ```swift
/// let scenario = try ScenarioLoader.load(file: "Scenarios/download-manager-p1-overwritten-task-id-ios17.json")
/// if let planted = scenario.shrinkPlantedBug() {
///     print(planted.originalActionCount, "->", planted.shrink.actionCount)   // 131 -> 4
/// }
/// ```
///
/// Contract: deterministic: the run is the first of the scenario's campaign (its seed, in run
/// order, under its effective strategy; for an exhaustive scenario, in search order) that
/// violates the expected invariant, and the shrink keeps that invariant violated.
public struct PlantedBugShrink: Sendable {
    /// The expected invariant.
    public var invariant: String
    /// The failing run's index in the campaign and its seed.
    public var runIndex: Int
    public var seed: Seed
    /// Environment actions and events of the original run.
    public var originalActionCount: Int
    public var originalEventCount: Int
    /// The shrinker's result: the shrunk choices, actions and events.
    public var shrink: ShrinkResult
}

extension Scenario {
    /// Finds the first run of the scenario's campaign that violates its expected invariant and
    /// shrinks it; `nil` for a scenario expected to pass or when no run of its campaign fails.
    ///
    /// - Parameter options: the shrinker's options (the campaign's default when omitted).
    /// - Complexity: up to `campaign.runs` runs, then at most `options.maxAttempts` replays.
    public func shrinkPlantedBug(options: ShrinkOptions = .init()) -> PlantedBugShrink? {
        guard case .violation(let invariant) = expectation else { return nil }
        if strategy == .exhaustive { return searchPlantedBug(invariant: invariant, options: options) }
        let keeps: (RunVerdict) -> Bool = { verdict in verdict.failures.contains { $0.invariant == invariant } }
        for index in 0..<campaign.runs {
            // The run's effective strategy (``forRun(_:)``: a default campaign's first runs are random).
            let target = SimulationTarget(spec: forRun(index).runSpec)
            let seed = campaign.seed.derive(index: UInt64(index))
            let source = ChoiceSource(seed: seed)
            let verdict = target.run(choices: source, keepTrace: false)
            guard keeps(verdict) else { continue }
            let replay = ChoiceSource(replaying: source.recorded)  // actions are marked in replay mode
            _ = target.run(choices: replay, keepTrace: false)
            let shrink = Shrinker.shrink(source.recorded, target: target, options: options, keeps: keeps)
            return PlantedBugShrink(invariant: invariant, runIndex: index, seed: seed,
                                    originalActionCount: replay.actions.count, originalEventCount: verdict.eventCount,
                                    shrink: shrink)
        }
        return nil
    }
}

extension Scenario {
    /// For a scenario whose strategy is `exhaustive`: the search's first run (in search order)
    /// that violates `invariant`, shrunk; `runIndex` is its number in the search and `seed` the
    /// campaign seed (search runs have no seed of their own).
    func searchPlantedBug(invariant: String, options: ShrinkOptions) -> PlantedBugShrink? {
        let search = ExhaustiveOptions(depth: campaign.depth ?? ExhaustiveOptions.defaultDepth, jobs: 1)
        let result = ExhaustiveSearch.run(SimulationTarget(spec: runSpec), options: search,
                                          campaign: CampaignOptions(seed: campaign.seed, runs: 0, jobs: 1, shrink: options))
        guard let record = result.failures.first(where: { $0.failure.invariant == invariant }),
              let shrink = record.shrink else { return nil }
        return PlantedBugShrink(invariant: invariant, runIndex: record.runIndex, seed: record.seed,
                                originalActionCount: record.originalActionCount,
                                originalEventCount: record.originalEventCount, shrink: shrink)
    }
}
