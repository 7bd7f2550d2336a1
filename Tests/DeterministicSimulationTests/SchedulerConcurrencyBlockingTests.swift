import DeterministicSimulation
import Testing

/// Simulated threads per queue, blocking that lets the world run, and deadlock reports.
@Suite("Scheduler concurrency: threads, blocking and deadlocks")
struct SchedulerConcurrencyBlockingTests {
    /// A scheduler with threads but no preemption (choices replay as 0), and a log.
    final class World {
        let pool = SimulatedThreadPool()
        let scheduler = Scheduler(choices: ChoiceSource(replaying: ChoiceSequence([])))
        var log: [String] = []

        init() {
            scheduler.enableControlledConcurrency(.blockingOnly, pool: pool)
        }

        /// Appends `name@milliseconds[thread]`.
        func note(_ name: String) {
            let ms = scheduler.now.microseconds / 1_000
            log.append("\(name)@\(ms)[\(scheduler.currentThreadLabel ?? "-")]")
        }

        deinit { scheduler.discardPendingJobs() }
    }

    @Test("block(for:) stops only its thread: time, timers and other threads go on meanwhile")
    func blockLetsTheWorldRun() {
        let world = World()
        let s = world.scheduler
        let uploads = s.makeQueue(label: "uploads", kind: .serial)
        s.async(on: uploads) {
            world.note("upload.start")
            s.block(for: .seconds(5))
            world.note("upload.end")
        }
        s.asyncAfter(.seconds(1), on: s.mainQueue) { world.note("main.tick") }
        s.asyncAfter(.seconds(2), on: s.mainQueue) { world.note("main.tock") }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == [
            "upload.start@0[uploads]", "main.tick@1000[main]", "main.tock@2000[main]", "upload.end@5000[uploads]",
        ])
        #expect(s.now == .seconds(10))
    }

    @Test("a serial queue whose job is suspended offers nothing else until the job resumes")
    func serialQueueWaitsForItsSuspendedJob() {
        let world = World()
        let s = world.scheduler
        let db = s.makeQueue(label: "db", kind: .serial)
        s.async(on: db) {
            world.note("first.start")
            s.block(for: .seconds(1))
            world.note("first.end")
        }
        s.async(on: db) { world.note("second") }
        s.asyncAfter(.milliseconds(500), on: s.mainQueue) { world.note("main") }
        #expect(s.runUntilIdle() == .idle)
        #expect(world.log == ["first.start@0[db]", "main@500[main]", "first.end@1000[db]", "second@1000[db]"])
    }

    @Test("a concurrent queue of width 2 runs two items at once on two threads; width 1 runs them in turn")
    func concurrentQueueInterleaves() {
        for width in [2, 1] {
            let world = World()
            let s = world.scheduler
            let workers = s.makeQueue(label: "workers", kind: .concurrent(width: width))
            for item in 0..<2 {
                s.async(on: workers) {
                    world.note("item\(item).start")
                    s.block(for: .seconds(1))
                    world.note("item\(item).end")
                }
            }
            #expect(s.runUntilIdle() == .idle)
            let expected =
                width == 2
                ? ["item0.start@0[workers#1]", "item1.start@0[workers#2]", "item0.end@1000[workers#1]",
                   "item1.end@1000[workers#2]"]
                : ["item0.start@0[workers]", "item0.end@1000[workers]", "item1.start@1000[workers]",
                   "item1.end@2000[workers]"]
            #expect(world.log == expected, "width \(width)")
        }
    }

    @Test("sync(on:) runs its work as a job of the target queue and the caller continues after it")
    func syncRunsOnTheTargetQueue() {
        let world = World()
        let s = world.scheduler
        let worker = s.makeQueue(label: "worker", kind: .serial)
        s.async(on: worker) {
            world.note("before")
            let ran = s.sync(on: s.mainQueue) { world.note("inside") }
            world.note("after \(ran)")
        }
        #expect(s.runUntilIdle() == .idle)
        #expect(world.log == ["before@0[worker]", "inside@0[main]", "after true@0[worker]"])
        #expect(s.deadlock == nil)
    }

    @Test("a semaphore blocks a waiter until another thread signals it")
    func semaphoreWaits() {
        let world = World()
        let s = world.scheduler
        let done = s.makeSemaphore(name: "done", value: 0)
        let a = s.makeQueue(label: "a", kind: .serial)
        let b = s.makeQueue(label: "b", kind: .serial)
        s.async(on: a) {
            world.note("wait")
            let got = done.wait()
            world.note("woke \(got)")
        }
        s.asyncAfter(.seconds(3), on: b) {
            world.note("signal")
            done.signal()
        }
        #expect(s.runUntilIdle() == .idle)
        #expect(world.log == ["wait@0[a]", "signal@3000[b]", "woke true@3000[a]"])
    }

    @Test("lock-order inversion is reported as a deadlock naming both threads, their locks and holders")
    func lockOrderInversion() throws {
        let world = World()
        let s = world.scheduler
        let lockA = s.makeLock(name: "A")
        let lockB = s.makeLock(name: "B")
        let io = s.makeQueue(label: "io", kind: .serial)
        let db = s.makeQueue(label: "db", kind: .serial)
        s.async(on: io) {
            lockA.lock()
            s.block(for: .milliseconds(1))
            lockB.lock()
            world.note("io has both")
        }
        s.async(on: db) {
            lockB.lock()
            s.block(for: .milliseconds(1))
            lockA.lock()
            world.note("db has both")
        }
        s.asyncAfter(.seconds(5), on: s.mainQueue) { world.note("later") }
        #expect(s.run(until: .seconds(10)) == .idle)
        let report = try #require(s.deadlock)
        #expect(report.threads == [
            .init(thread: "io", waitsFor: "lock \"B\" held by \"db\""),
            .init(thread: "db", waitsFor: "lock \"A\" held by \"io\""),
        ])
        #expect(report.time == .milliseconds(1))
        #expect(world.log.isEmpty, "the run stopped at the deadlock: \(world.log)")
        #expect(s.run(until: .seconds(20)) == .idle, "a deadlocked run stays stopped")
    }

    @Test("main.sync from the main thread is an immediate deadlock")
    func mainSyncFromMain() throws {
        let world = World()
        let s = world.scheduler
        var syncReturned: Bool?
        s.async(on: s.mainQueue) {
            world.note("handler")
            syncReturned = s.sync(on: s.mainQueue) { world.note("never") }
        }
        #expect(s.run(until: .seconds(1)) == .idle)
        let report = try #require(s.deadlock)
        #expect(report.description == "thread \"main\" waits for sync on queue \"main\" (itself)")
        #expect(syncReturned == nil, "still blocked until teardown")
        s.discardPendingJobs()
        #expect(syncReturned == false, "teardown unwinds the blocked call, failing fast")
        #expect(world.log == ["handler@0[main]"])
    }

    @Test("a wait no thread can ever end is a deadlock once nothing else can run")
    func semaphoreDeadlock() throws {
        let world = World()
        let s = world.scheduler
        let never = s.makeSemaphore(name: "never", value: 0)
        let a = s.makeQueue(label: "a", kind: .serial)
        s.async(on: a) { never.wait() }
        s.asyncAfter(.seconds(2), on: s.mainQueue) { world.note("timer") }
        #expect(s.run(until: .seconds(1)) == .reachedTime, "a timer can still run: not yet a deadlock")
        #expect(s.deadlock == nil)
        #expect(s.run(until: .seconds(5)) == .idle)
        let report = try #require(s.deadlock)
        #expect(report.description == "thread \"a\" waits for semaphore \"never\" (value 0)")
        #expect(report.time == .seconds(2))
        #expect(world.log == ["timer@2000[main]"])
    }

    @Test("step(until:) and runUntilIdle keep their contracts with threads")
    func stepAndRunUntilIdle() {
        let world = World()
        let s = world.scheduler
        s.asyncAfter(.seconds(1), on: s.mainQueue) { world.note("a") }
        s.asyncAfter(.seconds(2), on: s.mainQueue) { world.note("b") }
        #expect(!s.step(until: .milliseconds(500)))
        #expect(s.now == .zero)
        #expect(s.step(until: .seconds(5)))
        #expect(world.log == ["a@1000[main]"])
        #expect(s.runUntilIdle() == .idle)
        #expect(s.now == .seconds(2))
        #expect(s.stepsRun == 2)
    }

    @Test("a timed semaphore wait gives up at its virtual deadline, or takes a unit signalled before it")
    func timedSemaphoreWait() {
        let world = World()
        let s = world.scheduler
        let done = s.makeSemaphore(name: "upload done", value: 0)
        let waiter = s.makeQueue(label: "handler", kind: .serial)
        s.async(on: waiter) {
            world.note("first \(done.wait(timeout: .seconds(2)))")    // nothing signals: gives up at 2 s
            world.note("second \(done.wait(timeout: .seconds(5)))")   // signalled at 3 s
            world.note("third \(done.wait(timeout: .zero))")          // the late signal's unit is there
        }
        s.asyncAfter(.seconds(3), on: s.mainQueue) { done.signal() }
        s.asyncAfter(.seconds(9), on: s.mainQueue) { done.signal() }   // no one waits by then
        #expect(s.runUntilIdle() == .idle)
        #expect(world.log == ["first false@2000[handler]", "second true@3000[handler]", "third false@3000[handler]"])
        #expect(done.value == 1, "the 9 s signal found no waiter and stays")
    }

    @Test("a timed wait that only its own thread could end is no deadlock: it times out")
    func timedWaitIsNoDeadlock() {
        let world = World()
        let s = world.scheduler
        let gate = s.makeSemaphore(name: "gate", value: 0)
        s.async(on: s.mainQueue) {
            world.note("gave up \(!gate.wait(timeout: .milliseconds(500)))")
            gate.signal()
        }
        #expect(s.runUntilIdle() == .idle)
        #expect(s.deadlock == nil)
        #expect(world.log == ["gave up true@500[main]"])
        #expect(gate.value == 1)
    }
}
