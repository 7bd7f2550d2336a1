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

    @Test("runs executing at once in one process each keep their own @SimulatedMainActor and give their own results")
    func parallelRunsAreIndependent() {
        let seeds = (0..<8).map { Self.campaign.derive(index: UInt64($0)) }
        let alone = seeds.map { AsyncWorkload.run(choices: ChoiceSource(seed: $0)).events }
        let together = Results(count: seeds.count)
        DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
            let pool = SimulatedThreadPool()
            let configuration: ConcurrencyConfiguration? = index.isMultiple(of: 2) ? nil : Self.walk
            let events = AsyncWorkload.run(choices: ChoiceSource(seed: seeds[index]), configuration: configuration, pool: pool)
            together.set(index, events.events)
        }
        for index in seeds.indices where index.isMultiple(of: 2) {
            #expect(together.get(index) == alone[index], "seed: \(seeds[index])")
        }
        for index in seeds.indices where !index.isMultiple(of: 2) {
            let replay = AsyncWorkload.run(choices: ChoiceSource(seed: seeds[index]), configuration: Self.walk)
            #expect(together.get(index) == replay.events, "seed: \(seeds[index])")
        }
    }
}

/// Results written by parallel runs, one slot each.
final class Results: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var slots: [[String]]
    init(count: Int) { slots = Array(repeating: [], count: count) }
    func set(_ index: Int, _ value: [String]) {
        lock.wait()
        slots[index] = value
        lock.signal()
    }
    func get(_ index: Int) -> [String] {
        lock.wait()
        defer { lock.signal() }
        return slots[index]
    }
}
