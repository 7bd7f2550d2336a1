@testable import DeterministicSimulation
import Testing

/// A decision at loop level takes the inline fast path while the only suspended threads are on
/// frozen queues (`ThreadController.takeInlineJob`): the runs must be exactly those of the long
/// way, which these tests force by turning that case off.
@Suite("Fast path past frozen threads")
struct FrozenFastPathTests {
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
        s.threads?.state.allowsFrozenFastPath = fastPath
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
        let fastJobs = s.threads?.state.frozenFastPathCount ?? 0
        s.discardPendingJobs()
        return Outcome(digest: trace.digest, recorded: choices.recorded, stop: stop, now: s.now, fastJobs: fastJobs)
    }

    @Test("300 runs with a frozen suspended thread are the same with and without the fast path")
    func fastPathChangesNothing() {
        var fastJobs = 0
        for seed in 0..<300 as Range<UInt64> {
            let fast = Self.run(seed: seed, fastPath: true)
            let slow = Self.run(seed: seed, fastPath: false)
            #expect(fast.digest == slow.digest, "seed \(seed)")
            #expect(fast.recorded == slow.recorded, "seed \(seed)")
            #expect(fast.stop == slow.stop && fast.now == slow.now, "seed \(seed)")
            #expect(slow.fastJobs == 0, "seed \(seed)")
            fastJobs += fast.fastJobs
        }
        // The case is exercised: jobs start inline while the `db` thread is suspended and frozen.
        #expect(fastJobs > 1_000, "only \(fastJobs) jobs took the fast path past a frozen thread")
    }
}
