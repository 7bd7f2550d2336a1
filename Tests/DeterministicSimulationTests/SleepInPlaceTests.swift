@testable import DeterministicSimulation
import Testing

/// A sleep with nothing else to run before its wake-up skips the suspension
/// (`ThreadController.sleepsInPlace`): the runs must be exactly those of the long way, which
/// these tests force by turning the fast path off.
@Suite("Sleeping in place")
struct SleepInPlaceTests {
    /// One run of a sleepy app: two workers of a concurrent queue and a serial `db` queue sleep
    /// for drawn times between reads and writes of a shared counter, a lock guards half the
    /// rounds, and a main-queue timer and a late job compete with them.
    struct Outcome: Equatable {
        let digest: TraceDigest
        let recorded: ChoiceSequence
        let counter: Int
        let preemptions: Int
        let stop: SchedulerStop
        let now: VirtualTime
        let sleepsInPlace: Int
        let delaysInPlace: Int
    }

    static func run(seed: UInt64, configuration: ConcurrencyConfiguration, fastPath: Bool) -> Outcome {
        let choices = ChoiceSource(seed: Seed(seed))
        let s = Scheduler(choices: choices)
        s.enableControlledConcurrency(configuration, pool: .forCurrentThread)
        s.threads?.state.allowsSleepInPlace = fastPath
        let trace = TraceRecorder<CounterStep>(keepsEntries: false)
        var counter = 0
        func record(_ action: String) {
            trace.record(CounterStep(thread: s.currentThreadLabel ?? "-", action: action), at: s.now)
        }
        let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 2))
        let db = s.makeQueue(label: "db", kind: .serial)
        let lock = s.makeLock(name: "counter")
        for worker in 0..<2 {
            s.async(on: workers) {
                for round in 0..<3 {
                    let locked = round.isMultiple(of: 2)
                    if locked { lock.lock() }
                    let value = counter
                    record("w\(worker).\(round) read \(value)")
                    s.block(for: .microseconds(Int64(choices.draw(below: 400)) + 1))
                    counter = value + 1
                    record("w\(worker).\(round) wrote \(value + 1)")
                    if locked { lock.unlock() }
                }
            }
        }
        for statement in 0..<4 {
            s.async(on: db) {
                s.block(for: .microseconds(250))
                record("db \(statement)")
            }
        }
        s.asyncAfter(.microseconds(300), on: s.mainQueue) { record("tick") }
        s.asyncAfter(.microseconds(900), on: s.mainQueue) { record("late") }
        let stop = s.run(until: .seconds(1), maxSteps: 10_000)
        let preemptions = s.preemptionCount
        let sleeps = s.threads?.state.sleepsInPlaceCount ?? 0
        let delays = s.threads?.state.delaysInPlaceCount ?? 0
        s.discardPendingJobs()
        return Outcome(
            digest: trace.digest, recorded: choices.recorded, counter: counter, preemptions: preemptions,
            stop: stop, now: s.now, sleepsInPlace: sleeps, delaysInPlace: delays)
    }

    @Test("400 sleepy runs are the same with and without the fast path, random walk and PCT, with and without preemption delays")
    func fastPathChangesNothing() {
        var fastSleeps = 0
        var fastDelays = 0
        var lostUpdates = 0
        for index in 0..<400 {
            let configuration: ConcurrencyConfiguration =
                switch index % 4 {
                case 0: .pct(depth: 3, stepBound: 60)
                case 1: .randomWalk(preemptionRate: 0.2, maxDelay: .microseconds(300))
                case 2: .pct(depth: 2, stepBound: 60, maxDelay: .microseconds(300))
                default: .randomWalk(preemptionRate: 0.2)
                }
            let fast = Self.run(seed: UInt64(index), configuration: configuration, fastPath: true)
            let slow = Self.run(seed: UInt64(index), configuration: configuration, fastPath: false)
            #expect(fast.digest == slow.digest, "seed \(index)")
            #expect(fast.recorded == slow.recorded, "seed \(index)")
            #expect(fast.counter == slow.counter && fast.preemptions == slow.preemptions, "seed \(index)")
            #expect(fast.stop == slow.stop && fast.now == slow.now, "seed \(index)")
            #expect(slow.sleepsInPlace == 0)
            fastSleeps += fast.sleepsInPlace
            fastDelays += fast.delaysInPlace
            if fast.counter != 6 { lostUpdates += 1 }
        }
        // Both paths were exercised: many sleeps (and preemption delays) were taken in place, and
        // runs interleaved enough to lose updates (the long way ran too).
        #expect(fastSleeps > 400)
        #expect(fastDelays > 20)
        #expect(lostUpdates > 20)
    }
}
