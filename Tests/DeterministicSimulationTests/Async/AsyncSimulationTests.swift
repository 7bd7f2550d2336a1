import DeterministicSimulation
import Dispatch
import Testing

/// Swift concurrency under the scheduler: tasks, sleeps, groups, `async let`, continuations and
/// cancellation replay exactly from a seed, with and without controlled concurrency.
@Suite("Async under simulation")
struct AsyncSimulationTests {
    static let campaign = Seed(0xa5c0_0000_0000_0016)
    static let walk = ConcurrencyConfiguration.randomWalk(preemptionRate: 0.2)

    /// The digests of `runs` seeds of the campaign, each run twice (the two must agree).
    static func campaignDigest(runs: Int, configuration: ConcurrencyConfiguration?) -> (UInt64, Set<UInt64>) {
        let pool = SimulatedThreadPool()
        var combiner = DigestCombiner()
        var distinct = Set<UInt64>()
        for index in 0..<runs {
            let seed = campaign.derive(index: UInt64(index))
            let first = AsyncWorkload.run(choices: ChoiceSource(seed: seed), configuration: configuration, pool: pool)
            let again = AsyncWorkload.run(choices: ChoiceSource(seed: seed), configuration: configuration, pool: pool)
            #expect(first.events == again.events, "seed: \(seed)")
            #expect(first.escapes.isEmpty, "seed: \(seed): \(first.escapes)")
            #expect(first.stop == .reachedTime || first.stop == .idle, "seed: \(seed)")
            #expect(first.events.count == 14, "seed: \(seed): \(first.events)")
            combiner.add(TraceDigest(first.digest))
            distinct.insert(first.digest)
        }
        return (combiner.digest.value, distinct)
    }

    @Test("the async workload replays exactly per seed, its order varies with the seed, and its digest is pinned")
    func replaysWithoutThreads() {
        let (digest, distinct) = Self.campaignDigest(runs: 30, configuration: nil)
        #expect(distinct.count > 3, "the order of task resumptions should depend on the seed")
        // Pinned: the same in every process (computed from the runs' event order and times).
        #expect(digest == 11_763_172_998_360_848_237, "campaign \(Self.campaign)")
    }

    @Test("with controlled concurrency (random walk 0.2) it replays exactly, preempts, and its digest is pinned")
    func replaysWithThreads() {
        let (digest, distinct) = Self.campaignDigest(runs: 30, configuration: Self.walk)
        #expect(distinct.count > 3, "the order of task resumptions should depend on the seed")
        #expect(digest == 12_775_453_259_648_946_901, "campaign \(Self.campaign)")
        let outcome = AsyncWorkload.run(choices: ChoiceSource(seed: Self.campaign), configuration: Self.walk)
        #expect(outcome.preemptions > 0)
    }

    @Test("every run of the workload wakes the cancelled sleeper at 5 s with CancellationError")
    func cancelledSleeperInWorkload() {
        for index in 0..<10 {
            let seed = Self.campaign.derive(index: UInt64(index))
            let outcome = AsyncWorkload.run(choices: ChoiceSource(seed: seed))
            #expect(outcome.events.contains("5.000000s sleeper CancellationError"), "seed: \(seed)")
            #expect(!outcome.events.contains { $0.hasSuffix("sleeper woke normally") }, "seed: \(seed)")
        }
    }
}
