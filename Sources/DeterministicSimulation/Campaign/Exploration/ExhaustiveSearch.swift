import Synchronization

/// Bounded exhaustive search: every sequence of branching choices of a run (environment actions
/// and scheduling choices, as the target's draw sites mark them in an ``ExplorationLog``) up to
/// a depth, by stateless depth-first search with replay, cut where a state was already explored
/// with at least as much depth left.
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
/// the prefixes of the runs to come. The tree is first split, breadth first, into at least
/// ``ExhaustiveOptions/subtreeTarget`` subtrees (a number fixed by the tools, never by `--jobs`);
/// each subtree is searched depth first with its own visited states (``ExhaustiveSubtree``), on
/// any worker, and the results are merged in subtree order.
///
/// Contract:
/// - Every field of the result but the wall-clock times is the same for every `jobs`: the split
///   does not depend on it, each subtree's search is deterministic and independent of the
///   others, and merging goes by subtree index. ``ExhaustiveStats/distinctStates`` is the size of
///   the union of the subtrees' state hashes.
/// - The first failing run of each invariant (in subtree order, then search order) is replayed
///   from its recorded choices in process (a digest mismatch is nondeterminism) and shrunk; its
///   ``FailureRecord/choices`` replay it with ``ChoiceSource/init(replaying:)`` in a new process.
/// - `isCancelled` is polled before each run; once it returns `true` no run starts, failures
///   are not shrunk and the stop is `.interrupted`.
/// - `campaign.runs` and `campaign.shard` are not used (a search has no run budget and is not
///   sharded: the command line refuses both); `campaign.seed` is reported but decides nothing.
public enum ExhaustiveSearch {
    public static func run(_ target: some CampaignTarget, options: ExhaustiveOptions, campaign: CampaignOptions,
                           isCancelled: @Sendable @escaping () -> Bool = { false }) -> CampaignResult {
        let clock = WallClock()
        let split = Self.split(target, options: options)
        let subtrees = WorkerPool.map(split.roots.count, jobs: options.jobs) { index in
            var subtree = ExhaustiveSubtree(root: split.roots[index].prefix, fixedCount: split.roots[index].fixedCount,
                                            depth: options.depth, deduplicates: options.deduplicates, index: index)
            subtree.search(target, isCancelled: isCancelled)
            return subtree
        }
        let runSeconds = clock.elapsedSeconds
        var stats = ExhaustiveStats(depth: options.depth, subtrees: subtrees.count, splitRuns: split.runs)
        var tally = RunTally()
        var hashes = split.stateHashes
        var offsets: [Int] = []
        for subtree in subtrees {
            offsets.append(stats.sequences)
            stats.sequences += subtree.sequences
            stats.prunedBranches += subtree.prunedBranches
            stats.depthReached = max(stats.depthReached, subtree.depthReached)
            stats.complete = stats.complete && subtree.complete
            tally.merge(subtree.tally)
            hashes += subtree.stateHashes
        }
        hashes.sort()
        stats.distinctStates = hashes.uniquedSorted().count
        var totals = tally.totals
        totals.renumberFirstRuns { index in offsets[index >> 32] + (index & 0xffff_ffff) }
        let interrupted = !stats.complete
        let found = firstFailures(subtrees, offsets: offsets).prefix(campaign.maxShrunkFailures)
        let followUp = ExhaustiveFollowUp(target: target, campaign: campaign, shrinks: !interrupted, isCancelled: isCancelled)
        let records = WorkerPool.map(found.count, jobs: options.jobs) { index in followUp.record(found[found.startIndex + index]) }
        var result = CampaignResult(
            totals: totals, wallSeconds: clock.elapsedSeconds, runSeconds: runSeconds,
            stop: interrupted ? .interrupted : .completed, failures: records.map(\.record),
            nondeterminism: records.compactMap(\.nondeterminism), coverage: tally.coverage.coverage, options: campaign)
        result.exhaustive = stats
        return result
    }

    /// Each invariant's first failing run over all subtrees, in subtree order.
    private static func firstFailures(_ subtrees: [ExhaustiveSubtree], offsets: [Int]) -> [ExhaustiveFailure] {
        var found: [ExhaustiveFailure] = []
        for (index, subtree) in subtrees.enumerated() {
            for first in subtree.firstFailures where !found.contains(where: { $0.invariant == first.invariant }) {
                found.append(ExhaustiveFailure(invariant: first.invariant, sequence: offsets[index] + first.local,
                                               choices: first.choices, verdict: first.verdict))
            }
        }
        return found
    }

    /// The roots of the subtrees, breadth first: while there are fewer than the target, every
    /// root is replaced by the roots of its first new branch point's outcomes (within the
    /// depth). A root with no branch point left stays as it is; the split ends when no root has
    /// one. Also the runs it took and the state hashes of the nodes above the roots.
    static func split(_ target: some CampaignTarget, options: ExhaustiveOptions)
        -> (roots: [(prefix: [UInt64], fixedCount: Int)], runs: Int, stateHashes: [UInt64]) {
        var roots: [(prefix: [UInt64], fixedCount: Int)] = [([], 0)]
        var runs = 0
        var hashes: [UInt64] = []
        while roots.count < options.subtreeTarget {
            var next: [(prefix: [UInt64], fixedCount: Int)] = []
            var grew = false
            for root in roots {
                let run = ExploredRun(prefix: root.prefix, target: target)
                runs += 1
                guard let branch = run.branches.first(where: { $0.position >= root.prefix.count }) else {
                    next.append(root)
                    continue
                }
                let spent = run.cost(before: branch.position)
                hashes += run.nodes.filter { $0.position >= root.prefix.count && $0.position <= branch.position }.map(\.stateHash)
                // The canonical outcome costs nothing, so there is always at least one.
                for outcome in branch.alternatives where spent + branch.cost(of: outcome) <= options.depth {
                    next.append((Array(run.values[..<branch.position]) + [outcome], branch.position + 1))
                }
                grew = true
            }
            roots = next
            if !grew { break }
        }
        return (roots, runs, hashes)
    }
}

/// One invariant's first failing run in an exhaustive search.
struct ExhaustiveFailure: Sendable {
    var invariant: String
    /// The run's number in the search (subtree order, then search order), from 0.
    var sequence: Int
    var choices: ChoiceSequence
    var verdict: RunVerdict
}
