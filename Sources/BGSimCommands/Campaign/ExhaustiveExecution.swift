import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation

/// What `fuzz` prints about a scenario whose strategy is `exhaustive` (the engine searches it,
/// in this process, never isolated: ``ScenarioCampaign``), and whether a shard skips it.
///
/// ```swift
/// io.out(ExhaustiveExecution.header(scenario, options: options, exhaustive: ExhaustiveOptions(depth: 6, jobs: 2)))
/// ```
enum ExhaustiveExecution {
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
