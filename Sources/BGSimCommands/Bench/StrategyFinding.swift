import BackgroundTaskSimulator
import DeterministicSimulation

/// How many runs each exploration strategy takes to find a planted bug: for several campaign
/// seeds, the number of the first run (counting from 1) that trips the scenario's expected
/// invariant, under `random`, `swarm`, `coverage` and `default`.
///
/// ```swift
/// let rows = StrategyFinding.measureAll(in: "Scenarios", seeds: 5, deepOnly: true)
/// print(rows.map { "\($0.scenario) \($0.strategy): median \($0.medianRuns)" })
/// ```
///
/// Contract: deterministic (campaign seeds `0x5eed…0`, `…1`, ...; the runs of `fuzz` with that
/// seed and one job, ``Campaign/runsToFirstFailure(_:of:options:)``); a seed that finds nothing within the scenario's
/// own budget (`campaign.runs`) counts as budget + 1, so a median above the budget says "not
/// found within the budget". Crash and hang scenarios are left out (the bench runs in process).
struct StrategyFinding: Sendable {
    var scenario: String
    var strategy: ExplorationStrategy
    var budget: Int
    /// Runs to the first failure, one per seed, in seed order.
    var runsToFind: [Int]

    var medianRuns: Int { RaceFinding.median(runsToFind) }

    /// The strategies measured, in row order.
    static let strategies: [ExplorationStrategy] = [.random, .swarm, .coverage, .default]

    /// Rows for every planted-bug scenario in `directory` (only the `deep-` ones with
    /// `deepOnly`), one per strategy, in file order.
    static func measureAll(in directory: String, seeds: Int, deepOnly: Bool,
                           progress: (String) -> Void = { _ in }) -> [StrategyFinding] {
        guard let scenarios = try? ScenarioLoader.loadAll(in: directory) else { return [] }
        var rows: [StrategyFinding] = []
        for scenario in scenarios where !deepOnly || scenario.name.hasPrefix("deep-") {
            guard case .violation(let invariant) = scenario.expectation, !scenario.needsIsolation else { continue }
            progress("runs to find \(scenario.name)")
            for strategy in strategies {
                rows.append(measure(scenario, invariant: invariant, strategy: strategy, seeds: seeds))
            }
        }
        return rows
    }

    static func measure(_ scenario: Scenario, invariant: String, strategy: ExplorationStrategy,
                        seeds: Int) -> StrategyFinding {
        var spec = scenario.runSpec
        spec.exploration = strategy
        var early = spec  // a phased strategy's first runs (`default`: random runs)
        early.exploration = strategy.effective(forRun: 0)
        let targets = CampaignPhases(first: strategy.randomRuns, use: CampaignPhase(SimulationTarget(spec: early)),
                                     then: CampaignPhase(SimulationTarget(spec: spec)))
        let budget = scenario.campaign.runs
        let found = (0..<seeds).map { seedIndex in
            let campaignSeed = Seed(0x5eed_0000_0000_0000 &+ UInt64(seedIndex))
            let options = CampaignOptions(seed: campaignSeed, runs: budget, jobs: 1, determinismSamples: 0,
                                          guidance: strategy.guidance)
            return Campaign.runsToFirstFailure(targets, of: invariant, options: options) ?? budget + 1
        }
        return StrategyFinding(scenario: scenario.name, strategy: strategy, budget: budget, runsToFind: found)
    }

    /// The median over `rows` of one strategy of each row's median: one number per strategy.
    static func overallMedian(_ rows: [StrategyFinding], strategy: ExplorationStrategy) -> Int {
        RaceFinding.median(rows.filter { $0.strategy == strategy }.map(\.medianRuns))
    }
}
