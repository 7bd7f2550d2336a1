import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation

/// Runs a scenario whose strategy is `exhaustive` (``ExhaustiveSearch``) for `fuzz` and
/// `check`, and prints what it explored.
///
/// ```swift
/// let result = ExhaustiveExecution.run(scenario, options: campaignOptions,
///                                      exhaustive: ExhaustiveOptions(depth: 6, jobs: 2), interrupt: interrupt)
/// ```
///
/// Contract: the search runs in this process, never isolated (a crash in workload code ends
/// the command as without `--isolate`); the result is a ``CampaignResult`` with
/// ``CampaignResult/exhaustive`` set, judged by the scenario's expectation like any campaign.
enum ExhaustiveExecution {
    static func run(_ scenario: Scenario, options: CampaignOptions, exhaustive: ExhaustiveOptions,
                    interrupt: Interrupt) -> CampaignResult {
        ExhaustiveSearch.run(SimulationTarget(spec: scenario.runSpec), options: exhaustive, campaign: options,
                             isCancelled: { interrupt.isRequested })
    }

    /// The first line `fuzz` prints for an exhaustive scenario.
    static func header(_ scenario: Scenario, options: CampaignOptions, exhaustive: ExhaustiveOptions) -> String {
        "seed \(options.seed)  \(scenario.name) (\(scenario.file)): exhaustive search to depth \(exhaustive.depth), "
            + "\(exhaustive.jobs) jobs"
    }

    /// The summary's line of figures for an exhaustive search.
    static func statsLine(_ stats: ExhaustiveStats, result: CampaignResult) -> String {
        let rate = result.runSeconds > 0 ? Double(stats.sequences) / result.runSeconds : 0
        return "  exhaustive to depth \(stats.depth): \(stats.sequences) sequences (\(Int(rate))/s), "
            + "\(stats.distinctStates) distinct states, \(stats.prunedBranches) pruned branches, depth reached "
            + "\(stats.depthReached)\(stats.complete ? "" : " (INCOMPLETE: interrupted)")"
    }

    /// Refuses what an exhaustive scenario cannot take, before any work: `--runs` and `--shard`
    /// (also when the scenario file, not `--strategy`, names the strategy).
    static func check(_ scenarios: [Scenario], flags: CampaignFlags) throws(CLIError) {
        guard let scenario = scenarios.first(where: { $0.strategy == .exhaustive }) else { return }
        if let runs = flags.runs {
            throw .usage("--runs \(runs): \(scenario.file) is an exhaustive search (campaign.strategy), which has no "
                + "run budget; bound it with --depth N, or leave the scenario out")
        }
        if flags.shard != .whole || flags.shardIsAuto {
            throw .usage("--shard: \(scenario.file) is an exhaustive search (campaign.strategy), which is not sharded "
                + "(its tree is split across --jobs in one process); run it without --shard")
        }
    }
}

extension ReplayCommandText {
    /// The command that replays a failure: by its run seed, or for an exhaustive search (whose
    /// runs have no seed) by its choices.
    func failure(_ scenario: Scenario, _ record: FailureRecord) -> String {
        scenario.strategy == .exhaustive ? choices(scenario, record.choices) : seed(scenario, record.seed)
    }
}
