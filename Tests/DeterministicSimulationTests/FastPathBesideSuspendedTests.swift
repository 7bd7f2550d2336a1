@testable import DeterministicSimulation
import Testing

/// A decision takes the inline fast path while every suspended thread is blocked or on a frozen
/// queue (`ThreadController.takeInlineJob`): the runs must be exactly those of the long way,
/// which these tests force by turning that case off.
@Suite("Fast path beside suspended threads")
struct FastPathBesideSuspendedTests {
    struct Outcome: Equatable {
        let digest: TraceDigest
        let recorded: ChoiceSequence
        let stop: SchedulerStop
        let now: VirtualTime
        let fastJobs: Int
    }

    /// One run: an `a` job holds a lock across a sleep, a `db` job sleeps or blocks on that lock,
    /// and both queues are frozen under them (as a killed process's queues are); then three other
    /// queues race ready and timed jobs, and in a third of the runs both queues thaw at 1 ms (their
    /// threads can then run again, so the fast path must stop).
    static func run(seed: UInt64, fastPath: Bool) -> Outcome {
        let choices = ChoiceSource(seed: Seed(seed))
        let s = Scheduler(choices: choices)
        s.enableControlledConcurrency(.randomWalk(preemptionRate: 0.1), pool: .forCurrentThread)
        s.threads?.state.allowsFastPathBesideSuspended = fastPath
        let trace = TraceRecorder<CounterStep>(keepsEntries: false)
        func record(_ action: String) {
            trace.record(CounterStep(thread: s.currentThreadLabel ?? "-", action: action), at: s.now)
        }
        let db = s.makeQueue(label: "db", kind: .serial)
        let a = s.makeQueue(label: "a", kind: .serial)
        let queues = [s.mainQueue, s.makeQueue(label: "c", kind: .serial), s.makeQueue(label: "b", kind: .concurrent(width: 2))]
        let lock = s.makeLock(name: "held")
        let blocks = seed.isMultiple(of: 2)
        s.async(on: a) {
            lock.lock()
            s.block(for: .milliseconds(50))
            record("a released")
            lock.unlock()
        }
        s.async(on: db) {
            record("db start")
            if blocks { lock.withLock { record("db locked") } } else { s.block(for: .milliseconds(5)) }
            record("db end")
        }
        _ = s.run(until: VirtualTime(microseconds: 100), maxSteps: 100)
        s.freeze(a)
        s.freeze(db)
        for index in 0..<40 {
            let queue = queues[Int(choices.draw(below: 3))]
            let delay = Int64(choices.draw(below: 3)) * 1_000
            s.asyncAfter(.microseconds(delay), on: queue) {
                record("job \(index)")
                s.schedulingPoint()
            }
        }
        let thaws = seed % 3 == 0
        if thaws {
            s.asyncAfter(.milliseconds(1), on: s.mainQueue) {
                s.thaw(a)
                s.thaw(db)
            }
        }
        let stop = s.run(until: .seconds(1), maxSteps: 10_000)
        let fastJobs = s.threads?.state.fastPathBesideSuspendedCount ?? 0
        s.discardPendingJobs()
        return Outcome(digest: trace.digest, recorded: choices.recorded, stop: stop, now: s.now, fastJobs: fastJobs)
    }

    /// Runs 300 seeds with and without the fast path, expecting the same runs; returns how many
    /// jobs took it.
    static func compareWithLongWay(_ run: (UInt64, Bool) -> Outcome) -> Int {
        var fastJobs = 0
        for seed in 0..<300 as Range<UInt64> {
            let fast = run(seed, true)
            let slow = run(seed, false)
            #expect(fast.digest == slow.digest, "seed \(seed)")
            #expect(fast.recorded == slow.recorded, "seed \(seed)")
            #expect(fast.stop == slow.stop && fast.now == slow.now, "seed \(seed)")
            #expect(slow.fastJobs == 0, "seed \(seed)")
            fastJobs += fast.fastJobs
        }
        return fastJobs
    }

    @Test("300 runs with a frozen suspended thread are the same with and without the fast path")
    func fastPathChangesNothing() {
        let fastJobs = Self.compareWithLongWay { Self.run(seed: $0, fastPath: $1) }
        // The case is exercised: jobs start inline while the `db` thread is suspended and frozen.
        #expect(fastJobs > 1_000, "only \(fastJobs) jobs took the fast path past a frozen thread")
    }

    /// One run of an app whose threads block on each other without any frozen queue: sends on a
    /// serial `outbox` queue and a concurrent `net` queue each `sync` onto main (the sender blocks
    /// while main's job runs), take a lock that a slow writer holds across a sleep, and hand
    /// results over through a semaphore. Preemptions (rate 0.1) and delays mix in runnable and
    /// sleeping threads, when the fast path must not apply.
    static func blockingRun(seed: UInt64, fastPath: Bool) -> Outcome {
        let choices = ChoiceSource(seed: Seed(seed))
        let s = Scheduler(choices: choices)
        s.enableControlledConcurrency(
            .randomWalk(preemptionRate: 0.1, maxDelay: .milliseconds(2), delayProbability: 0.3), pool: .forCurrentThread)
        s.threads?.state.allowsFastPathBesideSuspended = fastPath
        let trace = TraceRecorder<CounterStep>(keepsEntries: false)
        func record(_ action: String) {
            trace.record(CounterStep(thread: s.currentThreadLabel ?? "-", action: action), at: s.now)
        }
        let outbox = s.makeQueue(label: "outbox", kind: .serial)
        let net = s.makeQueue(label: "net", kind: .concurrent(width: 2))
        let store = s.makeLock(name: "store")
        let results = s.makeSemaphore(name: "results", value: 0)
        var sent = 0
        for index in 0..<24 {
            let queue = index.isMultiple(of: 3) ? net : outbox
            let delay = Int64(choices.draw(below: 4)) * 500
            s.asyncAfter(.microseconds(delay), on: queue) {
                record("send \(index)")
                s.sync(on: s.mainQueue) { sent += 1; record("main saw \(index)") }
                store.withLock {
                    if index.isMultiple(of: 4) { s.block(for: .microseconds(300)) }
                    record("stored \(index)")
                }
                if index.isMultiple(of: 5) { results.signal() } else if index.isMultiple(of: 7) { _ = results.wait(timeout: .milliseconds(1)) }
                s.schedulingPoint()
            }
        }
        let stop = s.run(until: .seconds(1), maxSteps: 10_000)
        record("sent \(sent)")
        let fastJobs = s.threads?.state.fastPathBesideSuspendedCount ?? 0
        s.discardPendingJobs()
        return Outcome(digest: trace.digest, recorded: choices.recorded, stop: stop, now: s.now, fastJobs: fastJobs)
    }

    @Test("300 runs whose threads block on main, a lock and a semaphore are the same with and without the fast path")
    func blockedThreadsChangeNothing() {
        let fastJobs = Self.compareWithLongWay { Self.blockingRun(seed: $0, fastPath: $1) }
        // The case is exercised: main's `sync` jobs start inline while their senders are blocked.
        #expect(fastJobs > 3_000, "only \(fastJobs) jobs took the fast path beside blocked threads")
    }
}
