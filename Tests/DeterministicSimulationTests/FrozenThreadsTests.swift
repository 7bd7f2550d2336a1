@testable import DeterministicSimulation
import Testing

/// The threads of a frozen queue stay off the CPU until it thaws, wherever they were when it
/// froze: suspended already (the controller moves them to a list of their own), or still running
/// and suspending afterwards (a job that freezes its own queue). Decisions look only at the
/// suspended threads of live queues, so these are the cases where a thread could be lost or
/// resumed too early.
@Suite("Threads of frozen queues")
struct FrozenThreadsTests {
    /// What ran when: each entry is a thread's label, what it did, and the virtual time in µs.
    final class Log {
        let scheduler: Scheduler
        var entries: [String] = []

        init(_ scheduler: Scheduler) { self.scheduler = scheduler }

        func record(_ what: String) {
            entries.append("\(scheduler.currentThreadLabel ?? "-") \(what) \(scheduler.now.microseconds)")
        }
    }

    static func scheduler() -> Scheduler {
        let s = Scheduler(choices: ChoiceSource(seed: Seed(7)))
        s.enableControlledConcurrency(.randomWalk(preemptionRate: 0), pool: .forCurrentThread)
        return s
    }

    @Test("a thread asleep or blocked when its queue freezes resumes only after the thaw, and then at once")
    func suspendedThenFrozen() {
        let s = Self.scheduler()
        let log = Log(s)
        let sleeper = s.makeQueue(label: "sleeper", kind: .serial)
        let waiter = s.makeQueue(label: "waiter", kind: .serial)
        let holder = s.makeQueue(label: "holder", kind: .serial)
        let lock = s.makeLock(name: "store")
        s.async(on: sleeper) {
            s.block(for: .milliseconds(1))
            log.record("woke")
        }
        s.async(on: holder) {
            lock.lock()
            s.block(for: .milliseconds(2))
            lock.unlock()  // wakes the waiter while its queue is frozen
            log.record("unlocked")
        }
        s.asyncAfter(.microseconds(100), on: waiter) {
            lock.withLock { log.record("locked") }
        }
        s.asyncAfter(.microseconds(500), on: s.mainQueue) {
            s.freeze(sleeper)
            s.freeze(waiter)
        }
        s.asyncAfter(.milliseconds(5), on: s.mainQueue) {
            log.record("thaw")
            s.thaw(sleeper)
            s.thaw(waiter)
        }
        _ = s.run(until: .seconds(1), maxSteps: 1_000)
        s.discardPendingJobs()
        #expect(log.entries == ["holder unlocked 2000", "main thaw 5000", "sleeper woke 5000", "waiter locked 5000"])
    }

    @Test("a job that freezes its own queue and then sleeps stays off the CPU until another thaws it")
    func frozenThenSuspended() {
        let s = Self.scheduler()
        let log = Log(s)
        let app = s.makeQueue(label: "app", kind: .serial)
        s.async(on: app) {
            s.freeze(app)
            s.block(for: .milliseconds(1))
            log.record("woke")
        }
        s.asyncAfter(.microseconds(200), on: app) { log.record("queued job") }
        s.asyncAfter(.milliseconds(3), on: s.mainQueue) {
            log.record("thaw")
            s.thaw(app)
        }
        _ = s.run(until: .seconds(1), maxSteps: 1_000)
        s.discardPendingJobs()
        #expect(log.entries == ["main thaw 3000", "app woke 3000", "app queued job 3000"])
    }

    @Test("freezing and thawing a queue many times with threads suspended on it loses none of them")
    func manyFreezes() {
        let s = Self.scheduler()
        let log = Log(s)
        let queues = (0..<4).map { s.makeQueue(label: "q\($0)", kind: .concurrent(width: 2)) }
        for (index, queue) in queues.enumerated() {
            for slot in 0..<3 {
                s.async(on: queue) {
                    for step in 0..<5 { s.block(for: .microseconds(Int64(100 * (index + slot + step + 1)))) }
                    log.entries.append("q\(index) job \(slot) done")
                }
            }
        }
        for tick in 1...40 {
            s.asyncAfter(.microseconds(Int64(tick * 150)), on: s.mainQueue) {
                let queue = queues[tick % queues.count]
                if tick.isMultiple(of: 2) { s.freeze(queue) } else { s.thaw(queue) }
            }
        }
        s.asyncAfter(.milliseconds(20), on: s.mainQueue) { for queue in queues { s.thaw(queue) } }
        _ = s.run(until: .seconds(1), maxSteps: 10_000)
        #expect(s.threads?.suspendedCount == 0, "every job ran to its end")
        #expect(log.entries.count == 12, "\(log.entries)")
        s.discardPendingJobs()
    }
}
