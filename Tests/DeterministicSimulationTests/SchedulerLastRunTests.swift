import DeterministicSimulation
import Testing

/// `runLast`: the driver hands the loop to a pool worker and carries no job (every job left
/// suspended at the end can be unwound, or given up, at teardown), and the verdict (`atStop`)
/// sees the world before any suspended job is unwound.
@Suite("Scheduler concurrency: the last run call")
struct SchedulerLastRunTests {
    /// Three queues' jobs with scheduling points and nothing that suspends them.
    private func makeBusyScheduler(pool: SimulatedThreadPool, log: Box<[String]>) -> Scheduler {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(7)))
        scheduler.enableControlledConcurrency(.blockingOnly, pool: pool)
        for index in 0..<3 {
            let queue = scheduler.makeQueue(label: "q\(index)", kind: .serial)
            scheduler.asyncAfter(.milliseconds(Int64(index)), on: queue) {
                scheduler.schedulingPoint()
                log.value.append("q\(index)")
                scheduler.schedulingPoint()
            }
        }
        return scheduler
    }

    @Test("a run whose jobs never suspend makes two handoffs with runLast, as with run: the driver runs no job")
    func noHandoffWithoutSuspension() {
        let pool = SimulatedThreadPool()
        let plainLog = Box<[String]>([])
        let plain = makeBusyScheduler(pool: pool, log: plainLog)
        #expect(plain.run(until: .seconds(1)) == .idle)
        #expect(plain.threadHandoffCount == 2)
        plain.discardPendingJobs()

        let lastLog = Box<[String]>([])
        let last = makeBusyScheduler(pool: pool, log: lastLog)
        var stops: [SchedulerStop] = []
        #expect(last.runLast(until: .seconds(1)) { stops.append($0) } == .idle)
        #expect(last.threadHandoffCount == plain.threadHandoffCount)
        #expect(stops == [.idle])
        #expect(lastLog.value == plainLog.value)
        #expect(lastLog.value == ["q0", "q1", "q2"])
        last.discardPendingJobs()
        #expect(pool.idleCount == pool.threadCount)
    }

    @Test("runLast takes the same decisions as run: 300 racy runs give equal traces, choices and counters")
    func sameDecisionsAsRun() {
        let pool = SimulatedThreadPool()
        var lostUpdates = 0
        for index in 0..<300 {
            let seed = Seed(UInt64(index))
            let configuration = ConcurrencyConfiguration.randomWalk(preemptionRate: 0.3)
            let plain = CounterRace.run(choices: ChoiceSource(seed: seed), configuration: configuration, pool: pool)
            let last = CounterRace.run(
                choices: ChoiceSource(seed: seed), configuration: configuration, pool: pool, lastRun: true)
            last.expectSameRun(as: plain, "seed \(index)")
            if last.lostUpdate { lostUpdates += 1 }
        }
        // The comparison covers runs with preemptions and handoffs, not only quiet ones.
        #expect(lostUpdates > 10)
        #expect(pool.idleCount == pool.threadCount)
    }

    @Test("jobs suspended at the stop are unwound at teardown, after atStop saw the world")
    func unwindsSuspendedJobsAfterVerdict() {
        let pool = SimulatedThreadPool()
        let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(3)))
        scheduler.enableControlledConcurrency(.blockingOnly, pool: pool)
        let gate = scheduler.makeSemaphore(name: "gate", value: 0)
        var log: [String] = []
        // Started first: waits for a signal that never comes.
        scheduler.async(on: scheduler.makeQueue(label: "waiter", kind: .serial)) {
            log.append("waiter before")
            log.append("waiter after \(gate.wait())")
        }
        // Then, once the waiter is suspended, on a pool thread: sleeps past the limit.
        scheduler.asyncAfter(.milliseconds(1), on: scheduler.makeQueue(label: "sleeper", kind: .serial)) {
            log.append("sleeper before")
            scheduler.block(for: .seconds(100))
            log.append("sleeper after")
        }
        var seenAtStop: [String] = []
        let stop = scheduler.runLast(until: .seconds(10)) { _ in seenAtStop = log }
        #expect(stop == .reachedTime)
        #expect(seenAtStop == ["waiter before", "sleeper before"])
        #expect(log == ["waiter before", "sleeper before"])
        #expect(scheduler.now == .seconds(10))
        scheduler.discardPendingJobs()
        #expect(log == ["waiter before", "sleeper before", "waiter after false", "sleeper after"])
        #expect(pool.idleCount == pool.threadCount)
    }

    @Test("the driver's job resumes from a pool thread, and the loop comes back to the driver")
    func loopMovesBetweenDriverAndPool() {
        let pool = SimulatedThreadPool()
        let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(4)))
        scheduler.enableControlledConcurrency(.blockingOnly, pool: pool)
        var log: [String] = []
        for (label, seconds) in [("a", 1), ("b", 2)] {
            scheduler.async(on: scheduler.makeQueue(label: label, kind: .serial)) {
                log.append("\(label) at \(scheduler.now.microseconds / 1_000_000)")
                scheduler.block(for: .seconds(Int64(seconds)))
                log.append("\(label) woke at \(scheduler.now.microseconds / 1_000_000)")
            }
        }
        scheduler.asyncAfter(.seconds(5), on: scheduler.mainQueue) { log.append("main at 5") }
        var stops = 0
        #expect(scheduler.runLast(until: .seconds(60)) { _ in stops += 1 } == .idle)
        #expect(stops == 1)
        #expect(log == ["a at 0", "b at 0", "a woke at 1", "b woke at 2", "main at 5"])
        #expect(scheduler.now == .seconds(60))
        scheduler.discardPendingJobs()
        #expect(pool.idleCount == pool.threadCount)
    }

    @Test("a deadlock stops the last run; atStop sees the report, and the job is unwound at teardown")
    func deadlockStopsTheLastRun() {
        let pool = SimulatedThreadPool()
        let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(5)))
        scheduler.enableControlledConcurrency(.blockingOnly, pool: pool)
        var log: [String] = []
        scheduler.async(on: scheduler.mainQueue) {
            log.append("sync \(scheduler.sync(on: scheduler.mainQueue) { log.append("never") })")
        }
        var reported = false
        #expect(scheduler.runLast(until: .seconds(1)) { _ in reported = scheduler.deadlock != nil } == .idle)
        #expect(reported)
        #expect(log == [])
        scheduler.discardPendingJobs()
        #expect(log == ["sync false"])
        #expect(pool.idleCount == pool.threadCount)
    }

    @Test("without controlled concurrency runLast is run, then atStop")
    func withoutThreads() {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(6)))
        var log: [String] = []
        scheduler.asyncAfter(.seconds(2), on: scheduler.mainQueue) { log.append("job") }
        var seen: [String] = ["not called"]
        #expect(scheduler.runLast(until: .seconds(1)) { _ in seen = log } == .reachedTime)
        #expect(seen == [])
        #expect(scheduler.now == .seconds(1))
    }
}

/// A mutable box, so a test's closures can share a value.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
