import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation

/// The options `fuzz` and `check` share: declared once here (an option group), parsed and
/// validated before any work starts.
///
/// ```swift
/// let flags = try CampaignFlags(Arguments(parsing: ["--runs", "50", "--shard", "2/4"],
///                                         for: FuzzCommand.declaration))
/// flags.options(for: scenario)   // 50 runs, the scenario's seed, all cores, shard 2 of 4
/// ```
///
/// Contract: an option the command does not declare reads as absent (`check` takes no `--runs`,
/// so each scenario keeps its own); bad values are usage errors naming the option and the form.
struct CampaignFlags {
    var runs: Int?
    var seed: Seed?
    var jobs: Int
    var shard: Shard
    /// `--shard auto`: resolved from the environment when the command runs (``resolveAutoShard(_:)``).
    var shardIsAuto = false
    /// How runs are protected from crashes and hangs in workload code.
    var isolation: Isolation
    /// `--strategy`: the exploration strategy that replaces each scenario's `campaign.strategy`.
    var strategy: ExplorationStrategy?
    /// `--depth`: the depth of exhaustive searches, replacing each scenario's `campaign.depth`.
    var depth: Int?

    static let runsOption = OptionDeclaration.valued(
        "--runs", "N", help: "runs per scenario, 1 to 100000000 (default: the scenario's campaign.runs)")
    static let seedOption = OptionDeclaration.valued(
        "--seed", "S", help: "campaign seed, 0x and 16 hex digits or decimal (default: the scenario's)")
    static let jobsOption = OptionDeclaration.valued(
        "--jobs", "J", help: "parallel jobs, 1 to 1024 (default: all cores); changes speed, never results (a Swift "
            + "concurrency scenario's parallel runs go to child processes, one run at a time in each)")
    static let shardOption = OptionDeclaration.valued(
        "--shard", "K/N", help: "run only the K-th of N disjoint slices of the runs, K from 1 (join with merge); "
            + "auto: from BGSIM_SHARD or the CI system's variables")
    static let junitOption = OptionDeclaration.valued(
        "--junit", "FILE", help: "also write JUnit XML for CI, one test suite per scenario")
    static let strategyOption = OptionDeclaration.valued(
        "--strategy", "NAME", help: "exploration strategy: \(ExplorationStrategy.names) (default: the scenario's "
            + "campaign.strategy, else default); replay commands name each run's effective strategy")
    static let quietOption = OptionDeclaration.flag(
        "--quiet", help: "no progress on stderr (progress is shown only when stderr is a terminal)")

    /// `init` for a command whose runs are isolated unless `--no-isolate` is given (`check`).
    init(_ args: Arguments, isolatesByDefault: Bool) throws(CLIError) {
        try self.init(args)
        isolation = try Isolation(args, byDefault: isolatesByDefault)
    }

    init(_ args: Arguments) throws(CLIError) {
        runs = try args.int(Self.runsOption.name, in: Scenario.CampaignDefaults.runsRange)
        seed = try args.seed(Self.seedOption.name)
        jobs = try args.int(Self.jobsOption.name, in: 1...1_024) ?? Self.defaultJobs
        if args.value(Self.shardOption.name) == "auto" {
            shard = .whole
            shardIsAuto = true
        } else if let text = args.value(Self.shardOption.name) {
            do {
                shard = try Shard(parsing: text)
            } catch {
                throw .usage("--shard: \(error) (write K/N with 1 <= K <= N, e.g. --shard 2/4, or auto)")
            }
        } else {
            shard = .whole
        }
        isolation = try Isolation(args, byDefault: false)
        strategy = try Self.strategy(args)
        depth = try Self.exhaustiveDepth(args, strategy: strategy)
    }

    /// Parses `--strategy NAME` (nil when absent); a name that is not a strategy is a usage error.
    static func strategy(_ args: Arguments) throws(CLIError) -> ExplorationStrategy? {
        guard let text = args.value(strategyOption.name) else { return nil }
        guard let strategy = ExplorationStrategy(rawValue: text) else {
            throw .usage("--strategy: '\(text)' is not an exploration strategy (use one of \(ExplorationStrategy.names))")
        }
        return strategy
    }

    /// The scenarios with `--strategy`, if given, in place of their files' strategies.
    func applyStrategy(to scenarios: [Scenario]) -> [Scenario] {
        guard let strategy else { return scenarios }
        return scenarios.map { scenario in
            var overridden = scenario
            overridden.strategyOverride = strategy
            return overridden
        }
    }

    /// Replaces `--shard auto` with the shard the environment names (``Shard/detect(in:)``); the
    /// source, for the summary, or nil when the shard was given as `K/N` or not at all.
    mutating func resolveAutoShard(_ environment: [String: String]) throws(CLIError) -> String? {
        guard shardIsAuto else { return nil }
        let detected: (shard: Shard, source: String)
        do {
            detected = try Shard.detect(in: environment)
        } catch {
            throw .usage("--shard auto: \(error)")
        }
        (shard, shardIsAuto) = (detected.shard, false)
        return detected.source
    }

    /// All cores.
    static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    func options(for scenario: Scenario) -> CampaignOptions {
        CampaignOptions(seed: seed ?? scenario.campaign.seed, runs: runs ?? scenario.campaign.runs, jobs: jobs,
                        shard: shard, guidance: scenario.strategy.guidance)
    }
}
