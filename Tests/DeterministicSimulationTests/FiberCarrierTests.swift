import DeterministicSimulation
import Testing

/// Fibers and OS threads carry simulated threads with the same results: the carrier changes
/// speed, never a decision, a trace or a counter.
@Suite("Simulated threads on fibers")
struct FiberCarrierTests {
    @Test("a pool asked for fibers carries fibers where supported, OS threads elsewhere")
    func carriersFollowSupport() {
        let fibers = SimulatedThreadPool(carriers: .fibers)
        #expect(fibers.carriers == (SimulatedThreadPool.fibersAreSupported ? .fibers : .osThreads))
        #expect(SimulatedThreadPool(carriers: .osThreads).carriers == .osThreads)
    }

    @Test("300 racy runs give equal traces, choices, counters and stops on fibers and on OS threads, with run and runLast")
    func sameRunsOnBothCarriers() {
        let fibers = SimulatedThreadPool(carriers: .fibers)
        let threads = SimulatedThreadPool(carriers: .osThreads)
        var lostUpdates = 0
        for index in 0..<300 {
            let seed = Seed(UInt64(index))
            let configuration: ConcurrencyConfiguration =
                index.isMultiple(of: 3) ? .pct(depth: 2, stepBound: 40) : .randomWalk(preemptionRate: 0.3)
            let lastRun = index.isMultiple(of: 2)
            let onThreads = CounterRace.run(
                choices: ChoiceSource(seed: seed), configuration: configuration, pool: threads, lastRun: lastRun)
            let onFibers = CounterRace.run(
                choices: ChoiceSource(seed: seed), configuration: configuration, pool: fibers, lastRun: lastRun)
            onFibers.expectSameRun(as: onThreads, "seed \(index)")
            if onFibers.lostUpdate { lostUpdates += 1 }
        }
        // The comparison covers runs that suspend and resume jobs, not only quiet ones.
        #expect(lostUpdates > 10)
        #expect(fibers.idleCount == fibers.threadCount && fibers.threadCount > 0)
        #expect(threads.idleCount == threads.threadCount)
    }

    @Test("a deadlock and the unwinding of blocked jobs work on fibers: every worker is idle afterwards")
    func deadlockUnwindsOnFibers() {
        let pool = SimulatedThreadPool(carriers: .fibers)
        for seed in 0..<20 {
            let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(UInt64(seed))))
            scheduler.enableControlledConcurrency(.randomWalk(preemptionRate: 0.5), pool: pool)
            let a = scheduler.makeLock(name: "a")
            let b = scheduler.makeLock(name: "b")
            var finished = 0
            for (first, second) in [(a, b), (b, a)] {
                let queue = scheduler.makeQueue(label: "q", kind: .serial)
                scheduler.async(on: queue) {
                    first.lock()
                    scheduler.block(for: .milliseconds(1))
                    second.lock()
                    second.unlock()
                    first.unlock()
                    finished += 1
                }
            }
            _ = scheduler.run(until: .seconds(1))
            #expect(scheduler.deadlock != nil, "seed \(seed): both jobs hold one lock and wait for the other")
            scheduler.discardPendingJobs()
            #expect(finished == 2, "seed \(seed): unwinding runs both jobs to their end")
            #expect(pool.idleCount == pool.threadCount)
        }
    }

    @Test("deep recursion inside a suspended job keeps its frames: each fiber has its own stack")
    func framesSurviveSuspension() {
        let pool = SimulatedThreadPool(carriers: .fibers)
        let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(3)))
        scheduler.enableControlledConcurrency(.randomWalk(preemptionRate: 1), pool: pool)
        var sums: [Int] = []
        func sum(_ depth: Int, _ weight: Double) -> Int {
            if depth == 0 {
                scheduler.block(for: .microseconds(5))  // every job suspends at the bottom
                return 0
            }
            return depth + Int(weight * 2) + sum(depth - 1, weight / 2)
        }
        for index in 0..<4 {
            let queue = scheduler.makeQueue(label: "q\(index)", kind: .serial)
            scheduler.async(on: queue) { sums.append(sum(200 + index, 1.5)) }
        }
        _ = scheduler.run(until: .seconds(1))
        scheduler.discardPendingJobs()
        let expected = (0..<4).map { index in (1...(200 + index)).reduce(0, +) + 4 }.sorted()  // weights 3 + 1 + 0
        #expect(sums.sorted() == expected)
    }

    @Test("releasing a pool of fibers ends them and frees their stacks, also after many runs")
    func poolReleaseEndsFibers() {
        for _ in 0..<50 {
            let pool = SimulatedThreadPool(carriers: .fibers)
            _ = CounterRace.run(
                choices: ChoiceSource(seed: Seed(9)), configuration: .randomWalk(preemptionRate: 0.5), pool: pool)
            #expect(pool.idleCount == pool.threadCount)
        }
    }
}
