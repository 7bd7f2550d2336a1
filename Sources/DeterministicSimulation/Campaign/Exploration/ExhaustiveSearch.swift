import Synchronization

/// Bounded exhaustive search: every sequence of branching choices of a run (environment actions
/// and scheduling choices, as the target's draw sites mark them in an ``ExplorationLog``) up to
/// a depth, by stateless search with replay, each state explored once: at the depth it is first
/// reached with.
///
/// ```swift
/// let result = ExhaustiveSearch.run(target, options: ExhaustiveOptions(depth: 6, jobs: 2),
///                                   campaign: CampaignOptions(seed: scenarioSeed, runs: 0, jobs: 2))
/// print(result.exhaustive!.distinctStates, result.failures.first?.choices.token ?? "no failure")
/// ```
///
/// How: a run replays a prefix of choices and then takes every draw's canonical value (0 unless
/// its draw site says otherwise), recording the branch points it passed and the state hashes at
/// its nodes (``ExploredRun``). Each branch point's other outcomes, within the depth left, are
/// the prefixes of runs to come. The search goes level by level, a level being the depth spent
/// before a node: the nodes of a level are deduplicated against every state seen before, in a
/// fixed order (first come, first kept; a state seen at a lower level had more depth left), and
/// each remaining node's segment (every way on to the next nodes, ``ExhaustiveSegment``) is
/// searched depth first on any worker; the nodes a segment reaches join the level of their
/// depth (always a higher one: going on to another action costs 1), in segment order.
///
/// Contract:
/// - Every field of the result but the wall-clock times is the same for every `jobs`: the
///   levels, their order and the visited states do not depend on it, each segment's search is
///   deterministic, and results merge in level and segment order. A state is explored once
///   over the whole search, whatever the job count.
/// - The first failing run of each invariant (in search order) is replayed from its recorded
///   choices in process (a digest mismatch is nondeterminism) and shrunk; its
///   ``FailureRecord/choices`` replay it with ``ChoiceSource/init(replaying:)`` in a new process.
/// - `isCancelled` is polled before each run; once it returns `true` no run starts, failures
///   are not shrunk and the stop is `.interrupted`.
/// - `campaign.runs` and `campaign.shard` are not used (a search has no run budget and is not
///   sharded: the command line refuses both); `campaign.seed` is reported but decides nothing.
/// - Memory: the nodes of the levels not yet expanded (each with its run's choices).
package enum ExhaustiveSearch {
    package static func run(_ target: some CampaignTarget, options: ExhaustiveOptions, campaign: CampaignOptions,
                           isCancelled: @Sendable @escaping () -> Bool = { false }) -> CampaignResult {
        let clock = WallClock()
        var search = LevelSearch(depth: options.depth, deduplicates: options.deduplicates)
        var root = ExhaustiveSegment(depth: options.depth, key: 0)
        root.searchFromStart(target, isCancelled: isCancelled)
        search.add([root])
        for level in 0...options.depth where search.stats.complete {
            let nodes = search.takeLevel(level)
            let segments = WorkerPool.map(nodes.count, jobs: options.jobs) { index in
                var segment = ExhaustiveSegment(depth: options.depth, key: (level + 1) << 20 | index)
                segment.search(from: nodes[index], target, isCancelled: isCancelled)
                return segment
            }
            search.add(segments)
        }
        let runSeconds = clock.elapsedSeconds
        var totals = search.tally.totals
        totals.renumberFirstRuns(search.sequenceNumber)
        let interrupted = !search.stats.complete
        let found = Array(search.firstFailures.prefix(campaign.maxShrunkFailures))
        let followUp = ExhaustiveFollowUp(target: target, campaign: campaign, shrinks: !interrupted, isCancelled: isCancelled)
        let records = WorkerPool.map(found.count, jobs: options.jobs) { index in followUp.record(found[index]) }
        var result = CampaignResult(
            totals: totals, wallSeconds: clock.elapsedSeconds, runSeconds: runSeconds,
            stop: interrupted ? .interrupted : .completed, failures: records.map(\.record),
            nondeterminism: records.compactMap(\.nondeterminism), coverage: search.tally.coverage.coverage, options: campaign)
        result.exhaustive = search.stats
        return result
    }
}

/// The levels of an exhaustive search and what it found so far, merged in a fixed order.
struct LevelSearch {
    let depth: Int
    let deduplicates: Bool
    private(set) var stats: ExhaustiveStats
    private(set) var tally = RunTally()
    private(set) var firstFailures: [ExhaustiveFailure] = []
    /// The nodes waiting at each level (the depth spent before them), in arrival order.
    private var levels: [[FrontierNode]]
    /// The level each state was first kept at (lookups only, never iterated).
    private var visited: [UInt64: Int] = [:]
    /// Each segment's key and the number of runs before it, in search order.
    private var offsets: [(key: Int, before: Int)] = []

    init(depth: Int, deduplicates: Bool) {
        self.depth = depth
        self.deduplicates = deduplicates
        stats = ExhaustiveStats(depth: depth)
        levels = Array(repeating: [], count: depth + 1)
    }

    /// Merges searched segments, in order: their runs, failures and the nodes they reached.
    mutating func add(_ segments: [ExhaustiveSegment]) {
        for segment in segments {
            offsets.append((segment.key, stats.sequences))
            for first in segment.firstFailures where !firstFailures.contains(where: { $0.invariant == first.invariant }) {
                firstFailures.append(ExhaustiveFailure(invariant: first.invariant, sequence: stats.sequences + first.local,
                                                       choices: first.choices, verdict: first.verdict))
            }
            stats.sequences += segment.sequences
            stats.depthReached = max(stats.depthReached, segment.depthReached)
            stats.complete = stats.complete && segment.complete
            tally.merge(segment.tally)
            for node in segment.emitted where node.cost <= depth { levels[node.cost].append(node) }
        }
    }

    /// The nodes of `level` whose states were not seen before (each state counted once; a node
    /// seen again is a pruned branch), emptying the level.
    mutating func takeLevel(_ level: Int) -> [FrontierNode] {
        var kept: [FrontierNode] = []
        for node in levels[level] {
            if visited[node.stateHash] != nil {
                if deduplicates {
                    stats.prunedBranches += 1
                    continue
                }
            } else {
                visited[node.stateHash] = level
                stats.distinctStates += 1
            }
            kept.append(node)
        }
        levels[level] = []
        // A node with no depth left has nothing to expand: every way on costs at least 1.
        return level < depth ? kept : []
    }

    /// The number in search order of the run with index `index` (a segment's key and its local
    /// number).
    func sequenceNumber(_ index: Int) -> Int {
        let key = index >> ExhaustiveSegment.localBits
        let local = index & (1 << ExhaustiveSegment.localBits - 1)
        let segment = offsets.firstIndex { $0.key == key } ?? 0
        return offsets[segment].before + local
    }
}

/// One invariant's first failing run in an exhaustive search.
struct ExhaustiveFailure: Sendable {
    var invariant: String
    /// The run's number in the search (level and segment order, then search order), from 0.
    var sequence: Int
    var choices: ChoiceSequence
    var verdict: RunVerdict
}
