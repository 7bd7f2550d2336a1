import DeterministicSimulation
import Testing

/// Runs that end with suspended threads unwind them: nothing leaks, nothing hangs.
@Suite("Scheduler concurrency: teardown and the thread pool")
struct SchedulerConcurrencyTeardownTests {
    @Test("1,000 runs ending with suspended and deadlocked threads keep the pool's size stable")
    func poolStableAcrossRuns() {
        let pool = SimulatedThreadPool(stackSize: 128 << 10)
        var unwound = 0
        var sizes: [Int] = []
        for run in 0..<1_000 {
            let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(UInt64(run))))
            scheduler.enableControlledConcurrency(.randomWalk(preemptionRate: 0.3), pool: pool)
            let gate = scheduler.makeSemaphore(name: "gate", value: 0)
            for index in 0..<3 {
                let queue = scheduler.makeQueue(label: "q\(index)", kind: .serial)
                scheduler.async(on: queue) {
                    scheduler.schedulingPoint()
                    if !gate.wait() { unwound += 1 }
                    scheduler.schedulingPoint()  // fails fast during teardown
                    scheduler.block(for: .seconds(1))
                }
            }
            scheduler.asyncAfter(.seconds(1), on: scheduler.mainQueue) { scheduler.schedulingPoint() }
            _ = scheduler.run(until: .milliseconds(500))
            scheduler.discardPendingJobs()
            #expect(pool.idleCount == pool.threadCount, "run \(run)")
            sizes.append(pool.threadCount)
        }
        #expect(unwound == 3_000)
        #expect(sizes[10] == sizes[999], "pool sizes: \(sizes[10]) then \(sizes[999])")
        #expect(pool.threadCount <= 4, "threads: \(pool.threadCount)")
    }

    @Test("a pool serves one scheduler at a time and is given back at teardown")
    func poolIsLentOneAtATime() {
        let pool = SimulatedThreadPool()
        for _ in 0..<3 {
            let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(1)))
            scheduler.enableControlledConcurrency(.blockingOnly, pool: pool)
            let queue = scheduler.makeQueue(label: "q", kind: .serial)
            scheduler.async(on: queue) { scheduler.block(for: .seconds(10)) }
            #expect(scheduler.run(until: .seconds(1)) == .reachedTime)
            #expect(pool.idleCount == pool.threadCount - 1)
            scheduler.discardPendingJobs()
            #expect(pool.idleCount == pool.threadCount)
        }
        #expect(pool.threadCount == 1)
    }

    @Test("a thread suspended at the horizon resumes in the next run call")
    func suspendedAcrossRunCalls() {
        let pool = SimulatedThreadPool()
        let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(2)))
        scheduler.enableControlledConcurrency(.blockingOnly, pool: pool)
        var log: [Int64] = []
        let queue = scheduler.makeQueue(label: "q", kind: .serial)
        scheduler.async(on: queue) {
            log.append(scheduler.now.microseconds)
            scheduler.block(for: .seconds(3))
            log.append(scheduler.now.microseconds)
        }
        #expect(scheduler.run(until: .seconds(1)) == .reachedTime)
        #expect(log == [0])
        #expect(scheduler.run(until: .seconds(5)) == .idle)
        #expect(log == [0, 3_000_000])
        scheduler.discardPendingJobs()
    }
}
