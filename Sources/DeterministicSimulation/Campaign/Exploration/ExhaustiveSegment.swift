/// A node of an exhaustive search waiting to be expanded: the run that first reached it (its
/// recorded outcomes and branch points; the run was counted when it ran), where the node is,
/// and the depth spent before it.
struct FrontierNode: Sendable {
    let values: [UInt64]
    let branches: [ExplorationLog.Branch]
    let costs: [Int]
    /// The node's draw position: its subtree is every branch at or after it.
    let position: Int
    let cost: Int
    let stateHash: UInt64
}

/// One *segment* of an exhaustive search, searched depth first by replay: every way from a
/// node (or from the start of the run) to the next nodes, within the depth. A run that reaches a
/// new node stops being expanded there and hands the node on (``emitted``) for the search to
/// deduplicate and expand at its level; the run itself (the node's "stop here" leaf) is counted.
///
/// ```swift
/// var segment = ExhaustiveSegment(depth: 6, key: 3)
/// segment.search(from: node, target)
/// for next in segment.emitted { print(next.cost, next.stateHash) }
/// ```
///
/// Contract: deterministic (the same target, start and depth give the same runs, in the same
/// order, in any process); shares nothing, so segments can be searched on any threads.
struct ExhaustiveSegment: Sendable {
    let depth: Int
    /// The segment's place in the search (its level and index there): the high bits of its runs'
    /// indices, so that they are job-independent and unique.
    let key: Int

    private(set) var sequences = 0
    private(set) var depthReached = 0
    private(set) var complete = true
    /// The new nodes reached, in search order.
    private(set) var emitted: [FrontierNode] = []
    var tally = RunTally()
    /// The first run that violated each invariant here, in order of discovery.
    private(set) var firstFailures: [(invariant: String, local: Int, choices: ChoiceSequence, verdict: RunVerdict)] = []

    /// The bits of a run index left for the runs of one segment.
    static let localBits = 24

    init(depth: Int, key: Int) {
        self.depth = depth
        self.key = key
    }

    /// Searches from the start of the run (the root segment: the launch, up to the first node).
    mutating func searchFromStart(_ target: some CampaignTarget, isCancelled: () -> Bool) {
        search([[]], target, isCancelled: isCancelled)
    }

    /// Searches every way on from `node` (its first run was counted when it ran).
    mutating func search(from node: FrontierNode, _ target: some CampaignTarget, isCancelled: () -> Bool) {
        let children = Self.children(values: node.values, branches: node.branches, costs: node.costs,
                                     from: node.position, before: Int.max, depth: depth)
        search(children, target, isCancelled: isCancelled)
    }

    private mutating func search(_ start: [[UInt64]], _ target: some CampaignTarget, isCancelled: () -> Bool) {
        var stack = start
        while let prefix = stack.popLast() {
            if isCancelled() {
                complete = false
                return
            }
            let run = ExploredRun(prefix: prefix, target: target)
            count(run)
            var cut = Int.max
            if let node = run.nodes.first(where: { $0.position >= prefix.count }) {
                cut = node.position
                emitted.append(FrontierNode(values: run.values, branches: run.branches, costs: run.costs,
                                            position: node.position, cost: run.cost(before: node.position),
                                            stateHash: node.stateHash))
            }
            stack.append(contentsOf: Self.children(values: run.values, branches: run.branches, costs: run.costs,
                                                   from: prefix.count, before: cut, depth: depth))
        }
    }

    /// Tallies a run and keeps it if it is some invariant's first violation here.
    private mutating func count(_ run: ExploredRun) {
        let local = sequences
        sequences += 1
        depthReached = max(depthReached, run.totalCost)
        tally.add(run.verdict, runIndex: key << Self.localBits | local, isSample: false)
        for failure in run.verdict.failures where !firstFailures.contains(where: { $0.invariant == failure.invariant }) {
            firstFailures.append((failure.invariant, local, ChoiceSequence(run.values), run.verdict))
        }
    }

    /// The prefixes of the unexplored siblings of the branches at positions in `from..<before`,
    /// within `depth`: the values up to the branch, then another outcome. In the order a stack
    /// should receive them so that popping explores depth first, lower outcomes first.
    static func children(values: [UInt64], branches: [ExplorationLog.Branch], costs: [Int], from: Int, before: Int,
                         depth: Int) -> [[UInt64]] {
        var children: [[UInt64]] = []
        var spent = 0
        for (index, branch) in branches.enumerated() {
            defer { spent += costs[index] }
            guard branch.position >= from, branch.position < before else { continue }
            let taken = values[branch.position]
            for alternative in branch.alternatives.reversed() where alternative != taken {
                guard spent + branch.cost(of: alternative) <= depth else { continue }
                children.append(Array(values[..<branch.position]) + [alternative])
            }
        }
        return children
    }
}
