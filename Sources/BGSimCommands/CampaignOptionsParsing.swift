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

/// The command that reproduces one failure, as printed and reported.
enum ReplayCommandText {
    static func seed(_ scenario: Scenario, _ seed: Seed) -> String {
        "bgsim replay \(scenario.file) --seed \(seed)"
    }

    static func choices(_ scenario: Scenario, _ choices: ChoiceSequence) -> String {
        "bgsim replay \(scenario.file) --choices \(choices.token)"
    }
}

/// Checks that output paths can be written, before any work (exit 73).
enum OutputPaths {
    static func check(_ paths: [String?]) throws(CLIError) {
        for case let path? in paths {
            do {
                try AtomicFile.checkWritable(path)
            } catch {
                throw CLIError(.cannotCreate, error.description)
            }
        }
    }

    static func write(_ text: String, to path: String) throws(CLIError) {
        do {
            try AtomicFile.write(text, to: path)
        } catch {
            throw CLIError(.cannotCreate, error.description)
        }
    }
}
