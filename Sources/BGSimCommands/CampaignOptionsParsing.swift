import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation

/// The options `fuzz` and `check` share, parsed and validated before any work starts.
struct CampaignFlags {
    var runs: Int?
    var seed: Seed?
    var jobs: Int
    var shard: Shard

    init(_ args: Arguments) throws(CLIError) {
        runs = try args.int("--runs", in: 1...100_000_000)
        if let text = args.value("--seed") {
            do {
                seed = try Seed(parsing: text)
            } catch {
                throw .usage("--seed: \(error.description)")
            }
        }
        jobs = try args.int("--jobs", in: 1...1_024) ?? Self.defaultJobs
        if let text = args.value("--shard") {
            do {
                shard = try Shard(parsing: text)
            } catch {
                throw .usage("--shard: \(error) (write K/N with 1 <= K <= N, e.g. --shard 2/4)")
            }
        } else {
            shard = .whole
        }
    }

    /// All cores.
    static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    func options(for scenario: Scenario) -> CampaignOptions {
        CampaignOptions(seed: seed ?? scenario.campaign.seed, runs: runs ?? scenario.campaign.runs, jobs: jobs,
                        shard: shard)
    }
}
