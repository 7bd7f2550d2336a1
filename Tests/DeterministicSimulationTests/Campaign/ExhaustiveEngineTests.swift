import DeterministicSimulation
import Testing

/// A toy for the exhaustive search: before each step a go-on draw (stop, or one more step:
/// costs 1 of the depth) at a node whose state is the running sum, then a step that adds 0, 1
/// or 2 (free). It fails `sum-is-<target>` when it stops with that sum.
struct SumTarget: CampaignTarget {
    var failingSum = 5

    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        var sum = 0
        var hasher = StableHasher()
        for _ in 0..<10 {
            let position = choices.drawCount
            choices.exploration?.node(position: position, stateHash: UInt64(sum))
            let goesOn = choices.bool(probability: 0.5)
            choices.exploration?.branch(position: position, alternatives: [0, 1], extraCost: 1)
            guard goesOn else { break }
            let stepPosition = choices.drawCount
            let step = choices.int(in: 0...2)
            choices.exploration?.branch(position: stepPosition, alternatives: [0, 1, 2], extraCost: 0)
            sum += step
            hasher.combine(step)
        }
        hasher.combine(sum)
        let failures = sum == failingSum
            ? [Violation(invariant: "sum-is-\(failingSum)", message: "stopped at \(sum)", time: .zero)] : []
        return RunVerdict(digest: TraceDigest(hasher.finalize()), eventCount: 1, simulatedTime: .zero, failures: failures)
    }
}

/// The bounded exhaustive search's engine (``ExhaustiveSearch``) on a toy whose tree is known.
@Suite struct ExhaustiveEngineTests {
    static func search(_ target: SumTarget = SumTarget(), depth: Int, jobs: Int = 1, deduplicates: Bool = true)
        -> CampaignResult {
        ExhaustiveSearch.run(target, options: ExhaustiveOptions(depth: depth, jobs: jobs, deduplicates: deduplicates),
                             campaign: CampaignOptions(seed: Seed(1), runs: 0, jobs: jobs))
    }

    @Test("without deduplication the search runs every sequence of the tree exactly once")
    func enumeratesTheWholeTree() throws {
        // L(d) leaves within depth d: stop now (1), or one of 3 steps with d-1 left: L(d) = 1 + 3 L(d-1), L(0) = 1.
        for (depth, leaves) in [(1, 4), (2, 13), (3, 40), (4, 121)] {
            let stats = try #require(Self.search(depth: depth, deduplicates: false).exhaustive)
            #expect(stats.sequences == leaves, "depth \(depth)")
            #expect(stats.prunedBranches == 0)
            #expect(stats.depthReached == depth)
            // The nodes' states are the sums reachable in at most `depth` steps: 0...2 depth.
            #expect(stats.distinctStates == 2 * depth + 1, "depth \(depth)")
        }
    }

    @Test("deduplication cuts states already explored with as much depth left, and loses no outcome")
    func deduplicationIsSound() throws {
        let full = try #require(Self.search(depth: 4, deduplicates: false).exhaustive)
        let deduplicated = try #require(Self.search(depth: 4).exhaustive)
        #expect(deduplicated.sequences < full.sequences)
        #expect(deduplicated.prunedBranches > 0)
        #expect(deduplicated.distinctStates == full.distinctStates)
        // Pinned, 22 of the 121: level by level (the depth spent), each sum is expanded once, at
        // the first level that reaches it. Level 0: the root run (stop at 0) and its 3 steps
        // (reaching 0, 1, 2); level 1 expands 1 and 2 (0 was seen): 6 runs reaching 1-4; level
        // 2 expands 3 and 4, level 3 expands 5 and 6 (6 runs each); level 4 has no depth left.
        // 1 + 3 + 6 + 6 + 6 = 22 runs; 13 nodes pruned (1, then 4 a level).
        #expect(deduplicated.sequences == 22)
        #expect(deduplicated.prunedBranches == 13)
        // Every sum a run can stop with (0 through 8) is still found.
        for sum in 0...8 {
            let result = Self.search(SumTarget(failingSum: sum), depth: 4)
            #expect(result.failures.map(\.failure.invariant) == ["sum-is-\(sum)"], "sum \(sum)")
        }
    }

    @Test("a failure's recorded choices replay it, and jobs change speed, never results")
    func failuresReplayAndJobsDoNotMatter() throws {
        let one = Self.search(depth: 3, jobs: 1)
        let record = try #require(one.failures.first)
        #expect(record.failure.invariant == "sum-is-5")
        let replayed = SumTarget().run(choices: ChoiceSource(replaying: record.choices), keepTrace: false)
        #expect(replayed.failures.map(\.invariant) == ["sum-is-5"], "replay \(record.choices.token)")
        for jobs in [2, 3] {
            let other = Self.search(depth: 3, jobs: jobs)
            #expect(other.exhaustive == one.exhaustive, "jobs \(jobs)")
            #expect(other.totals.digest == one.totals.digest, "jobs \(jobs)")
            #expect(other.failures.map(\.choices) == one.failures.map(\.choices), "jobs \(jobs)")
            #expect(other.failures.map(\.runIndex) == one.failures.map(\.runIndex), "jobs \(jobs)")
        }
    }
}
