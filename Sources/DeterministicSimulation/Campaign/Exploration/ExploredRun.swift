/// One run of a bounded exhaustive search: what it drew, where it could have drawn otherwise,
/// the states it passed through, and its verdict.
///
/// ```swift
/// let run = ExploredRun(prefix: [1, 0, 2], target: target)
/// print(run.totalCost, run.nodes.map(\.stateHash))
/// ```
///
/// Contract: ``values`` replay the run exactly (``ChoiceSource/init(replaying:)``); ``costs``
/// has one entry per branch, the depth its recorded outcome cost.
struct ExploredRun {
    /// The prefix the run replayed; draws past it took their canonical values.
    let prefixCount: Int
    /// Every recorded outcome.
    let values: [UInt64]
    let branches: [ExplorationLog.Branch]
    let nodes: [ExplorationLog.Node]
    let verdict: RunVerdict
    /// The depth each branch's recorded outcome cost.
    let costs: [Int]

    init(prefix: [UInt64], target: some CampaignTarget) {
        let log = ExplorationLog()
        let source = ChoiceSource(exploring: ChoiceSequence(prefix), log: log)
        verdict = target.run(choices: source, keepTrace: false)
        prefixCount = prefix.count
        values = source.recorded.values
        branches = log.branches
        nodes = log.nodes
        costs = log.branches.map { branch in
            branch.position < source.recorded.values.count ? branch.cost(of: source.recorded.values[branch.position]) : 0
        }
    }

    /// The depth the whole run cost.
    var totalCost: Int { costs.reduce(0, +) }

    /// The depth spent before draw `position` (the branches before it).
    func cost(before position: Int) -> Int {
        var cost = 0
        for (index, branch) in branches.enumerated() where branch.position < position { cost += costs[index] }
        return cost
    }
}
