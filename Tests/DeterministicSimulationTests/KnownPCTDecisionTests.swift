@testable import DeterministicSimulation
import Testing

/// Calls `onRelease` when the last reference goes: a job's closure holding one shows in the trace
/// when the scheduler lets go of that closure (a cancelled job's, when a gathering drops it).
private final class ReleaseMark {
    let name = "holding a mark"
    let onRelease: () -> Void
    init(_ onRelease: @escaping () -> Void) { self.onRelease = onRelease }
    deinit { onRelease() }
}

/// A PCT point after new jobs skips the decision when none of them can start now
/// (`PCTPolicy.point`, `.keepRunning`): the runs must be exactly those of the long way, which
/// these tests force by turning the known decision off.
@Suite("PCT decisions known without deciding")
struct KnownPCTDecisionTests {
    struct Outcome: Equatable {
        let digest: TraceDigest
        let recorded: ChoiceSequence
        let preemptions: Int
        let stop: SchedulerStop
        let now: VirtualTime
        let known: Int
    }

    /// One run that moves the candidate set in every way the core counts: a main job queues
    /// statements onto a `db` queue (the first one onto an idle queue, the rest behind it or
    /// behind a busy thread), onto its own queue, onto a concurrent queue and for later; it
    /// cancels a queued statement (sometimes the front, sometimes one a take will uncover), and a
    /// timer thaws a frozen queue with a job waiting. Each statement holds a mark whose release
    /// is traced, so when a cancelled statement is dropped shows too. `db` statements sleep and take a lock
    /// the main job also takes, so threads block and wake.
    static func run(seed: UInt64, knowsDecisions: Bool) -> Outcome {
        let choices = ChoiceSource(seed: Seed(seed))
        let s = Scheduler(choices: choices)
        s.enableControlledConcurrency(.pct(depth: 1 + Int(seed % 3), stepBound: 80), pool: .forCurrentThread)
        s.threads?.state.policy.allowKnownDecisions(knowsDecisions)
        let trace = TraceRecorder<CounterStep>(keepsEntries: false)
        func record(_ action: String) {
            trace.record(CounterStep(thread: s.currentThreadLabel ?? "-", action: action), at: s.now)
        }
        let db = s.makeQueue(label: "db", kind: .serial)
        let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 2))
        let parked = s.makeQueue(label: "parked", kind: .serial)
        let lock = s.makeLock(name: "db")
        s.async(on: parked) { record("parked ran") }
        s.freeze(parked)
        s.asyncAfter(.microseconds(Int64(choices.draw(below: 900))), on: workers) {
            s.thaw(parked)
            record("thawed")
            s.asyncAfter(.microseconds(500), on: db) { record("db after thaw") }
            s.schedulingPoint()
            record("thaw done")
        }
        for batch in 0..<3 {
            s.async(on: s.mainQueue) {
                var statements: [JobID] = []
                for statement in 0..<Int(2 + choices.draw(below: 6)) {
                    let release = ReleaseMark { record("released \(batch).\(statement)") }
                    statements.append(s.async(on: db) {
                        lock.withLock { record("db \(batch).\(statement) \(release.name)") }
                        s.block(for: .microseconds(Int64(choices.draw(below: 200)) + 1))
                    })
                    s.schedulingPoint()
                }
                switch choices.draw(below: 4) {
                case 0: s.cancel(statements[0])
                case 1: s.cancel(statements[1])
                default: break
                }
                s.async(on: s.mainQueue) { record("main follow-up \(batch)") }
                s.asyncAfter(.microseconds(150), on: db) { record("db later \(batch)") }
                s.schedulingPoint()
                record("main queued \(batch)")
                // Two worker jobs, the second cancelled in half the runs: taking the first uncovers it.
                s.async(on: workers) {
                    lock.withLock { record("worker \(batch)") }
                    s.asyncAfter(.microseconds(300), on: db) { record("db after worker \(batch)") }
                    s.schedulingPoint()
                    record("worker done \(batch)")
                }
                let spare = ReleaseMark { record("released spare \(batch)") }
                let second = s.async(on: workers) { record("spare \(batch) \(spare.name)") }
                if choices.draw(below: 2) == 0 { s.cancel(second) }
                s.schedulingPoint()
                lock.withLock { record("main \(batch)") }
            }
        }
        let stop = s.run(until: .seconds(1), maxSteps: 10_000)
        let preemptions = s.preemptionCount
        let known = s.threads?.state.policy.pct?.knownDecisionCount ?? 0
        s.discardPendingJobs()
        return Outcome(
            digest: trace.digest, recorded: choices.recorded, preemptions: preemptions, stop: stop, now: s.now,
            known: known)
    }

    @Test("300 PCT runs are the same with and without known decisions")
    func knownDecisionsChangeNothing() {
        var known = 0
        var orders = Set<TraceDigest>()
        for seed in 0..<300 {
            let fast = Self.run(seed: UInt64(seed), knowsDecisions: true)
            let slow = Self.run(seed: UInt64(seed), knowsDecisions: false)
            #expect(fast.digest == slow.digest, "seed \(seed)")
            #expect(fast.recorded == slow.recorded, "seed \(seed)")
            #expect(fast.preemptions == slow.preemptions && fast.stop == slow.stop && fast.now == slow.now,
                    "seed \(seed)")
            #expect(slow.known == 0)
            known += fast.known
            orders.insert(fast.digest)
        }
        // Both paths ran: many decisions were known, and PCT interleaved the runs in many orders.
        #expect(known > 600)
        #expect(orders.count > 100)
    }
}
