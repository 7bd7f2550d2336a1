@testable import DeterministicSimulation
import Testing

/// A dead process's frozen code lets go of what the next process shares with it
/// (``Scheduler/releaseDeadQueues(_:)``): its threads that were off the CPU mid-job, not blocked,
/// run to the end of their jobs at once and inertly, releasing the locks they hold, drawing
/// nothing and never suspending.
@Suite("Dead queues")
struct DeadQueuesTests {
    /// One life: `p1`'s job takes the shared lock and sleeps holding it; at 1 ms `p1` dies
    /// (frozen, and released when `releases`); at 2 ms `p2`'s job takes the lock.
    static func life(releases: Bool) -> (log: [String], drawsInDeadCode: Int, deadlocked: Bool) {
        let s = FrozenThreadsTests.scheduler()
        let log = FrozenThreadsTests.Log(s)
        let p1 = s.makeQueue(label: "p1", kind: .serial)
        let p2 = s.makeQueue(label: "p2", kind: .serial)
        let shared = s.makeLock(name: "shared cache")  // a `static let`: one for both processes
        var drawsInDeadCode = 0
        s.async(on: p1) {
            shared.lock()
            s.block(for: .milliseconds(10))
            let before = s.choices.drawCount
            _ = s.choices.draw(below: 10)
            drawsInDeadCode = s.choices.drawCount - before
            log.record("unlocks")
            shared.unlock()
        }
        s.asyncAfter(.milliseconds(1), on: s.mainQueue) {
            s.freeze(p1)
            if releases { s.releaseDeadQueues([p1]) }
        }
        s.asyncAfter(.milliseconds(2), on: p2) {
            shared.withLock { log.record("locked") }
        }
        _ = s.run(until: .seconds(1), maxSteps: 1_000)
        let deadlocked = s.deadlock != nil
        let entries = log.entries  // before teardown unwinds what is left
        s.discardPendingJobs()
        return (entries, drawsInDeadCode, deadlocked)
    }

    @Test("a lock a dead thread held asleep is released when its process dies, and the next process takes it")
    func lockReleased() {
        let life = Self.life(releases: true)
        #expect(life.log == ["p1 unlocks 1000", "p2 locked 2000"])
        #expect(life.drawsInDeadCode == 0, "the dead code's draw moved the run's choices")
        #expect(!life.deadlocked)
    }

    @Test("without the release, the next process waits for the dead thread forever")
    func frozenHolderKeepsTheLock() {
        let life = Self.life(releases: false)
        #expect(!life.log.contains { $0.hasPrefix("p2 locked") })
    }
}
