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
    static func header(_ scenario: Scenario, options: CampaignOptions, exhaustive: ExhaustiveOptions, note: String = "")
        -> String {
        "seed \(options.seed)  \(scenario.name) (\(scenario.file)): exhaustive search to depth \(exhaustive.depth), "
            + "\(exhaustive.jobs) jobs\(note)"
    }

    /// The summary's line of figures for an exhaustive search.
    static func statsLine(_ stats: ExhaustiveStats, result: CampaignResult) -> String {
        let rate = result.runSeconds > 0 ? Double(stats.sequences) / result.runSeconds : 0
        return "  exhaustive to depth \(stats.depth): \(stats.sequences) sequences (\(Int(rate))/s), "
            + "\(stats.distinctStates) distinct states, \(stats.prunedBranches) pruned branches, depth reached "
            + "\(stats.depthReached)\(stats.complete ? "" : " (INCOMPLETE: interrupted)")"
    }

    /// Whether `fuzz` skips an exhaustive scenario in this shard: the search is not sharded, so
    /// it runs whole in shard 1 and the other shards of a CI matrix leave it out; their reports
    /// have no runs (``CampaignResult/searchedInShardOne(options:depth:)``), so `merge` joins
    /// them with shard 1's into the unsharded report.
    static func skips(_ scenario: Scenario, options: CampaignOptions) -> Bool {
        scenario.strategy == .exhaustive && options.shard.index > 1
    }

    /// The header's note for an exhaustive scenario in a run given `--runs` or `--shard` (which
    /// apply to seeded campaigns only), or "".
    static func note(_ flags: CampaignFlags, options: CampaignOptions) -> String {
        var notes: [String] = []
        if flags.runs != nil { notes.append("--runs does not apply") }
        if options.shard != .whole { notes.append("run whole in shard 1 of \(options.shard.count), not sharded") }
        return notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
    }
}

extension ReplayCommandText {
    /// The command that replays a failure: by its run seed, or by its choices for an exhaustive
    /// search (whose runs have no seed) and a coverage-guided mutant (``original(_:_:)``).
    func failure(_ scenario: Scenario, _ record: FailureRecord) -> String {
        scenario.strategy == .exhaustive ? choices(scenario, record.choices) : original(scenario, record)
    }
}
