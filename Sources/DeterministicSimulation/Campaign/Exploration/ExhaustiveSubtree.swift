/// The depth-first search of one subtree of a bounded exhaustive search, by replay: run a
/// prefix, note the run's new branch points, push their other outcomes, pop the next prefix.
/// States reached at the tree's nodes are deduplicated within the subtree.
///
/// ```swift
/// var subtree = ExhaustiveSubtree(root: [1, 0], fixedCount: 2, depth: 6, deduplicates: true, index: 0)
/// subtree.search(target, isCancelled: { false })
/// print(subtree.sequences, subtree.prunedBranches)
/// ```
///
/// Contract: deterministic (the same target, root and options give the same figures, failures
/// and visit order in any process); never looks at another subtree, so subtrees can be searched
/// on any threads. A node is cut when its state hash was already reached in this subtree with
/// at least as much depth left: its subtree (every branch at or after it) is not expanded.
struct ExhaustiveSubtree: Sendable {
    /// The prefix every run of the subtree starts with.
    let root: [UInt64]
    /// Draw positions below this belong to the split above the subtree: their nodes are counted
    /// as states but never cut a branch here (their subtrees are not all in this one).
    let fixedCount: Int
    let depth: Int
    let deduplicates: Bool
    /// The subtree's position in the split: the high bits of its runs' indices.
    let index: Int

    /// The most depth left seen with each state hash (lookups only, never iterated in order).
    private(set) var visited: [UInt64: Int] = [:]
    /// State hashes seen above the subtree's root.
    private(set) var above: [UInt64] = []
    private(set) var sequences = 0
    private(set) var prunedBranches = 0
    private(set) var depthReached = 0
    private(set) var complete = true
    var tally = RunTally()
    /// The first run that violated each invariant, in order of discovery: its choices.
    private(set) var firstFailures: [(invariant: String, local: Int, choices: ChoiceSequence, verdict: RunVerdict)] = []

    init(root: [UInt64], fixedCount: Int, depth: Int, deduplicates: Bool, index: Int) {
        self.root = root
        self.fixedCount = fixedCount
        self.depth = depth
        self.deduplicates = deduplicates
        self.index = index
    }

    /// The run index of the subtree's `local`-th run: job-independent, unique in the search.
    func runIndex(_ local: Int) -> Int { index << 32 | local }

    mutating func search(_ target: some CampaignTarget, isCancelled: () -> Bool) {
        var stack = [root]
        while let prefix = stack.popLast() {
            if isCancelled() {
                complete = false
                return
            }
            let run = ExploredRun(prefix: prefix, target: target)
            count(run)
            stack.append(contentsOf: run.children(depth: depth, cut: cut(run)))
        }
    }

    /// Tallies a run and keeps it if it is some invariant's first violation here.
    private mutating func count(_ run: ExploredRun) {
        let local = sequences
        sequences += 1
        depthReached = max(depthReached, run.totalCost)
        tally.add(run.verdict, runIndex: runIndex(local), isSample: false)
        for failure in run.verdict.failures where !firstFailures.contains(where: { $0.invariant == failure.invariant }) {
            firstFailures.append((failure.invariant, local, ChoiceSequence(run.values), run.verdict))
        }
    }

    /// Registers the run's nodes; the draw position from which its branches are not expanded
    /// (the first new node whose state was explored with at least as much depth left), or past
    /// its last draw.
    private mutating func cut(_ run: ExploredRun) -> Int {
        for node in run.nodes {
            let left = depth - run.cost(before: node.position)
            if node.position < fixedCount {
                above.append(node.stateHash)
                continue
            }
            let best = visited[node.stateHash]
            if node.position >= run.prefixCount, deduplicates, let best, best >= left {
                prunedBranches += 1
                return node.position
            }
            if best.map({ left > $0 }) ?? true { visited[node.stateHash] = left }
        }
        return Int.max
    }

    /// Every state hash the subtree reached, sorted, without repeats.
    var stateHashes: [UInt64] {
        var hashes = visited.keys.sorted() + above
        hashes.sort()
        return hashes.uniquedSorted()
    }
}

extension Array where Element == UInt64 {
    /// A sorted array without repeats.
    func uniquedSorted() -> [UInt64] {
        var result: [UInt64] = []
        result.reserveCapacity(count)
        for value in self where result.last != value { result.append(value) }
        return result
    }
}
