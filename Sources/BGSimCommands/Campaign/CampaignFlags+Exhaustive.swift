import BackgroundTaskSimulator
import DeterministicSimulation

extension CampaignFlags {
    static let depthOption = OptionDeclaration.valued(
        "--depth", "N", help: "depth of an exhaustive search, \(ExhaustiveOptions.depthRange.lowerBound) to "
            + "\(ExhaustiveOptions.depthRange.upperBound): environment actions plus scheduling choices "
            + "(default: the scenario's campaign.depth, else \(ExhaustiveOptions.defaultDepth))")

    /// Parses `--depth N` and checks the options an exhaustive search cannot take: `--depth`
    /// with another `--strategy`, and `--runs` or `--shard` with `--strategy exhaustive` (a
    /// search has no run budget, and its tree is split by `--jobs` in one process).
    static func exhaustiveDepth(_ args: Arguments, strategy: ExplorationStrategy?) throws(CLIError) -> Int? {
        let depth = try args.int(depthOption.name, in: ExhaustiveOptions.depthRange)
        if depth != nil, let strategy, strategy != .exhaustive {
            throw .usage("--depth bounds an exhaustive search, but --strategy is \(strategy) "
                + "(use --strategy exhaustive, or drop --depth)")
        }
        if strategy == .exhaustive {
            if let runs = args.value(runsOption.name) {
                throw .usage("--runs \(runs): an exhaustive search has no run budget; bound it with --depth N instead")
            }
            if let shard = args.value(shardOption.name) {
                throw .usage("--shard \(shard): an exhaustive search is not sharded (its tree is split across --jobs "
                    + "in one process); run it without --shard")
            }
        }
        return depth
    }

    /// The exhaustive options for `scenario`: `--depth`, else `campaign.depth`, else the default.
    func exhaustiveOptions(for scenario: Scenario) -> ExhaustiveOptions {
        ExhaustiveOptions(depth: depth ?? scenario.campaign.depth ?? ExhaustiveOptions.defaultDepth, jobs: jobs)
    }
}
