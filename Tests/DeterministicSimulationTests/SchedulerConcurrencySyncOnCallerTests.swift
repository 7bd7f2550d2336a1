import DeterministicSimulation
import Testing

/// `sync(on:runsOnCallerWhenFree: true)`: GCD runs a `sync` block on the calling thread when the
/// queue is free (every queue but the main queue), holding the queue meanwhile.
@Suite("Scheduler concurrency: sync on the caller's thread")
struct SchedulerConcurrencySyncOnCallerTests {
    typealias World = SchedulerConcurrencyBlockingTests.World

    /// A world with threads and no preemption, and two serial queues, `worker` and `db`.
    static func world() -> (world: World, scheduler: Scheduler, worker: QueueID, db: QueueID) {
        let world = World()
        let scheduler = world.scheduler
        return (world, scheduler, scheduler.makeQueue(label: "worker", kind: .serial),
                scheduler.makeQueue(label: "db", kind: .serial))
    }

    @Test("onto a free serial queue the block runs on the calling thread, with no handoff")
    func freeQueueRunsOnCaller() {
        let (world, s, worker, db) = Self.world()
        var handoffs = -1
        s.async(on: worker) {
            let before = s.threadHandoffCount
            let ran = s.sync(on: db, runsOnCallerWhenFree: true) { world.note("inside") }
            handoffs = s.threadHandoffCount - before
            world.note("after \(ran)")
        }
        #expect(s.runUntilIdle() == .idle)
        #expect(world.log == ["inside@0[worker]", "after true@0[worker]"])
        #expect(handoffs == 0, "the caller never left the CPU")
        let (other, t, otherWorker, otherDB) = Self.world()
        t.async(on: otherWorker) { t.sync(on: otherDB) { other.note("inside") } }
        #expect(t.runUntilIdle() == .idle)
        #expect(other.log == ["inside@0[db]"], "without the flag the block is a job of the queue")
    }

    /// GCD's `dispatch_sync` "executes blocks on the current thread whenever possible": onto a
    /// busy serial queue the caller waits for the block's turn and then runs it itself (probe 8:
    /// a main-thread `sync` onto a busy queue ran its block on the queue's thread, so a
    /// `@MainActor` closure trapped and `Thread.isMainThread` was false, where a device says true).
    @Test("a serial queue with a job due ahead runs that job first, then the block on the caller's thread")
    func busyQueueRunsInOrder() {
        let (world, s, worker, db) = Self.world()
        s.async(on: db) {
            world.note("write.start")
            s.block(for: .seconds(1))
            world.note("write.end")
        }
        s.asyncAfter(.milliseconds(500), on: worker) {
            s.sync(on: db, runsOnCallerWhenFree: true) { world.note("read") }
            world.note("after")
        }
        #expect(s.runUntilIdle() == .idle)
        #expect(world.log == ["write.start@0[db]", "write.end@1000[db]", "read@1000[worker]", "after@1000[worker]"])
    }

    @Test("while a block holds the queue, the queue's own jobs wait for it")
    func heldQueueDefersItsJobs() {
        let (world, s, worker, db) = Self.world()
        s.async(on: worker) {
            s.sync(on: db, runsOnCallerWhenFree: true) {
                world.note("held")
                s.async(on: db) { world.note("queued job") }
                s.block(for: .seconds(2))  // off the CPU, still holding db
                world.note("release")
            }
        }
        s.asyncAfter(.seconds(1), on: s.mainQueue) { world.note("main") }
        #expect(s.runUntilIdle() == .idle)
        #expect(world.log == ["held@0[worker]", "main@1000[main]", "release@2000[worker]", "queued job@2000[db]"])
    }

    @Test("onto a concurrent queue the block runs on the caller at once, beside the queue's busy items")
    func concurrentQueueDoesNotWait() {
        let (world, s, worker, _) = Self.world()
        let pool = s.makeQueue(label: "pool", kind: .concurrent(width: 2))
        for item in 1...3 {
            s.async(on: pool) {
                world.note("item \(item)")
                s.block(for: .seconds(1))
            }
        }
        s.asyncAfter(.milliseconds(500), on: worker) {
            s.sync(on: pool, runsOnCallerWhenFree: true) { world.note("block") }
        }
        #expect(s.runUntilIdle() == .idle)
        #expect(world.log == ["item 1@0[pool#1]", "item 2@0[pool#2]", "block@500[worker]", "item 3@1000[pool#1]"],
                "both threads busy and an item waiting: the block still runs at once, on its caller")
    }

    @Test("a sync onto the queue a block already holds is a deadlock naming the holder")
    func nestedSyncDeadlocks() throws {
        let (world, s, worker, db) = Self.world()
        s.async(on: worker) {
            s.sync(on: db, runsOnCallerWhenFree: true) {
                world.note("outer")
                s.sync(on: db, runsOnCallerWhenFree: true) { world.note("never") }
            }
        }
        #expect(s.run(until: .seconds(1)) == .idle)
        let report = try #require(s.deadlock)
        #expect(report.description == "thread \"worker\" waits for sync on queue \"db\" (itself)")
        s.discardPendingJobs()
        #expect(world.log == ["outer@0[worker]"])
    }

    @Test("a second thread's sync onto a held queue waits for the holder, and its report names it")
    func secondSyncWaitsForHolder() throws {
        let world = World()
        let s = world.scheduler
        let a = s.makeQueue(label: "a", kind: .serial)
        let b = s.makeQueue(label: "b", kind: .serial)
        let db = s.makeQueue(label: "db", kind: .serial)
        let gate = s.makeSemaphore(name: "gate", value: 0)
        s.async(on: a) {
            s.sync(on: db, runsOnCallerWhenFree: true) {
                world.note("a holds db")
                _ = gate.wait()  // never signalled: b waits on db behind it
            }
        }
        s.asyncAfter(.milliseconds(10), on: b) {
            s.sync(on: db, runsOnCallerWhenFree: true) { world.note("b inside") }
        }
        #expect(s.run(until: .seconds(1)) == .idle)
        let report = try #require(s.deadlock)
        #expect(report.threads == [
            .init(thread: "a", waitsFor: "semaphore \"gate\" (value 0)"),
            .init(thread: "b", waitsFor: "sync on queue \"db\" held by \"a\""),
        ])
        s.discardPendingJobs()
        #expect(world.log == ["a holds db@0[a]"])
    }
}
