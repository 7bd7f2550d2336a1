import DeterministicSimulation
import Foundation
import Testing

/// Real mutexes app code takes on simulated threads (`NSLock`, `NSRecursiveLock`,
/// `pthread_mutex_t`) and real dispatch semaphores and groups it waits on: a lock another
/// simulated thread holds, or a wait another one ends, blocks only its caller, and a cycle of such
/// waits is a deadlock report, not a process stuck in `pthread_mutex_lock` or
/// `dispatch_semaphore_wait`.
@Suite("Plain locks: real mutexes between simulated threads")
struct PlainLockTests {
    /// A scheduler with threads but no preemption (choices replay as 0), and a log.
    final class World {
        let pool = SimulatedThreadPool()
        let scheduler: Scheduler
        var log: [String] = []

        init(carriers: SimulatedThreadPool.Carriers? = nil) {
            scheduler = Scheduler(choices: ChoiceSource(replaying: ChoiceSequence([])))
            let pool = carriers.map { SimulatedThreadPool(carriers: $0) } ?? pool
            scheduler.enableControlledConcurrency(.blockingOnly, pool: pool)
        }

        func note(_ name: String) {
            let ms = scheduler.now.microseconds / 1_000
            log.append("\(name)@\(ms)[\(scheduler.currentThreadLabel ?? "-")]")
        }

        deinit { scheduler.discardPendingJobs() }
    }

    static var supported: Bool { Scheduler.tracksPlainLocks }

    @Test("an NSLock held across a blocking call makes the other thread wait for it, then go on",
          .enabled(if: supported), arguments: [SimulatedThreadPool.Carriers.fibers, .osThreads])
    func heldLockBlocksOnlyTheWaiter(carriers: SimulatedThreadPool.Carriers) {
        let world = World(carriers: carriers)
        let s = world.scheduler
        let lock = NSLock()
        let db = s.makeQueue(label: "db", kind: .serial)
        s.async(on: db) {
            lock.lock()
            world.note("db locked")
            s.block(for: .seconds(2))  // a write to disk, holding the lock
            world.note("db unlocks")
            lock.unlock()
        }
        s.asyncAfter(.seconds(1), on: s.mainQueue) {
            world.note("main wants it")
            lock.lock()
            world.note("main locked")
            lock.unlock()
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == [
            "db locked@0[db]", "main wants it@1000[main]", "db unlocks@2000[db]", "main locked@2000[main]",
        ])
        #expect(s.deadlock == nil)
        #expect(lock.try(), "the real mutex is free at the end")
        lock.unlock()
    }

    @Test("a lock-order inversion between two NSLocks is a deadlock naming both threads and locks",
          .enabled(if: supported))
    func lockOrderInversion() throws {
        let world = World()
        let s = world.scheduler
        let queueLock = NSLock()
        let taskLock = NSLock()
        let io = s.makeQueue(label: "io", kind: .serial)
        let db = s.makeQueue(label: "db", kind: .serial)
        s.async(on: io) {
            queueLock.lock()
            s.block(for: .milliseconds(1))
            taskLock.lock()
            world.note("io has both")
        }
        s.async(on: db) {
            taskLock.lock()
            s.block(for: .milliseconds(1))
            queueLock.lock()
            world.note("db has both")
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        let report = try #require(s.deadlock)
        #expect(report.threads == [
            .init(thread: "io", waitsFor: "lock \"NSLock or pthread mutex #1\" held by \"db\""),
            .init(thread: "db", waitsFor: "lock \"NSLock or pthread mutex #2\" held by \"io\""),
        ])
        #expect(report.time == .milliseconds(1))
        #expect(world.log.isEmpty)
        s.discardPendingJobs()  // unwinds both waits: neither takes the other's mutex
        #expect(queueLock.try() == false && taskLock.try() == false, "each still held by its own job")
    }

    @Test("a normal mutex its holder locks again is a deadlock on itself", .enabled(if: supported))
    func relockIsADeadlock() throws {
        let world = World()
        let s = world.scheduler
        var mutex = pthread_mutex_t()
        pthread_mutex_init(&mutex, nil)
        s.async(on: s.mainQueue) {
            pthread_mutex_lock(&mutex)
            world.note("locked once")
            let status = pthread_mutex_lock(&mutex)
            world.note("second lock returned \(status == EDEADLK ? "EDEADLK" : "\(status)")")
        }
        #expect(s.run(until: .seconds(1)) == .idle)
        let report = try #require(s.deadlock)
        #expect(report.description == "thread \"main\" waits for lock \"NSLock or pthread mutex #1\" held by \"main\" (itself)")
        s.discardPendingJobs()
        #expect(world.log == ["locked once@0[main]", "second lock returned EDEADLK@0[main]"])
        pthread_mutex_unlock(&mutex)
        pthread_mutex_destroy(&mutex)
    }

    @Test("an NSRecursiveLock is re-entered by its holder and excludes the other thread until fully released",
          .enabled(if: supported))
    func recursiveLock() {
        let world = World()
        let s = world.scheduler
        let lock = NSRecursiveLock()
        let sync = s.makeQueue(label: "sync", kind: .serial)
        s.async(on: sync) {
            lock.lock()
            lock.lock()
            world.note("twice")
            s.block(for: .seconds(1))
            lock.unlock()
            world.note("once left")
            s.block(for: .seconds(1))
            lock.unlock()
            world.note("released")
        }
        s.asyncAfter(.milliseconds(500), on: s.mainQueue) {
            lock.lock()
            world.note("main has it")
            lock.unlock()
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == [
            "twice@0[sync]", "once left@1000[sync]", "released@2000[sync]", "main has it@2000[main]",
        ])
        #expect(s.deadlock == nil)
    }

    @Test("tryLock of a lock another thread holds fails without waiting; free, it succeeds",
          .enabled(if: supported))
    func tryLock() {
        let world = World()
        let s = world.scheduler
        let lock = NSLock()
        let db = s.makeQueue(label: "db", kind: .serial)
        s.async(on: db) {
            lock.lock()
            s.block(for: .seconds(2))
            lock.unlock()
        }
        s.asyncAfter(.seconds(1), on: s.mainQueue) { world.note("try \(lock.try())") }
        s.asyncAfter(.seconds(3), on: s.mainQueue) {
            let got = lock.try()
            world.note("try \(got)")
            if got { lock.unlock() }
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == ["try false@1000[main]", "try true@3000[main]"])
    }

    @Test("a thread polling under a lock with no scheduling point lets the thread that waits for the lock in",
          .enabled(if: supported), arguments: [SimulatedThreadPool.Carriers.fibers, .osThreads])
    func pollingUnderALockLetsTheWaiterIn(carriers: SimulatedThreadPool.Carriers) {
        // Foundation's `waitUntilAllOperationsAreFinished` on Linux has this shape: it takes the
        // queue's lock to read its operations, lets it go, and takes it again, while the thread
        // that would finish the last operation waits for that lock.
        let world = World(carriers: carriers)
        let s = world.scheduler
        let lock = NSLock()
        nonisolated(unsafe) var finished = false  // under `lock`
        let poller = s.makeQueue(label: "poller", kind: .serial)
        s.async(on: poller) {
            lock.lock()
            s.block(for: .seconds(1))  // holding the lock across a blocking call
            lock.unlock()
            var polls = 0
            while true {
                lock.lock()
                let done = finished
                lock.unlock()
                polls += 1
                if done { break }
            }
            world.note("poller saw it after \(polls) polls")
        }
        s.asyncAfter(.milliseconds(500), on: s.mainQueue) {
            lock.lock()
            finished = true
            world.note("main finished")
            lock.unlock()
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == ["main finished@1000[main]", "poller saw it after 1 polls@1000[poller]"])
        #expect(s.deadlock == nil)
        #expect(lock.try(), "the real mutex is free at the end")
        lock.unlock()
    }

    @Test("three waiters all wake at the release and take the lock in turn", .enabled(if: supported))
    func severalWaiters() {
        let world = World()
        let s = world.scheduler
        let lock = NSLock()
        let holder = s.makeQueue(label: "holder", kind: .serial)
        s.async(on: holder) {
            lock.lock()
            s.block(for: .seconds(1))
            lock.unlock()
        }
        for name in ["a", "b", "c"] {
            let queue = s.makeQueue(label: name, kind: .serial)
            s.asyncAfter(.milliseconds(100), on: queue) {
                lock.lock()
                world.note("\(name) in")
                s.block(for: .milliseconds(10))
                lock.unlock()
            }
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == ["a in@1000[a]", "b in@1010[b]", "c in@1020[c]"])
        #expect(s.deadlock == nil)
    }

    @Test("a DispatchSemaphore waited on by one thread is signalled by another after its blocking call",
          .enabled(if: supported), arguments: [SimulatedThreadPool.Carriers.fibers, .osThreads])
    func semaphoreSignalledByAnotherThread(carriers: SimulatedThreadPool.Carriers) {
        let world = World(carriers: carriers)
        let s = world.scheduler
        let done = DispatchSemaphore(value: 0)
        let network = s.makeQueue(label: "network", kind: .serial)
        s.async(on: s.mainQueue) {
            s.async(on: network) {
                s.block(for: .seconds(3))  // the request
                world.note("signal")
                done.signal()
            }
            world.note("waits")
            done.wait()  // the SDK's "make it synchronous" semaphore
            world.note("woke")
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == ["waits@0[main]", "signal@3000[network]", "woke@3000[main]"])
        #expect(s.deadlock == nil)
    }

    @Test("a pthread_rwlock_t held for writing across a blocking call makes a reader wait; readers share it",
          .enabled(if: supported), arguments: [SimulatedThreadPool.Carriers.fibers, .osThreads])
    func readWriteLockBlocksOnlyTheWaiter(carriers: SimulatedThreadPool.Carriers) {
        let world = World(carriers: carriers)
        let s = world.scheduler
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
        defer {
            pthread_rwlock_destroy(lock)
            lock.deallocate()
        }
        let db = s.makeQueue(label: "db", kind: .serial)
        let readers = s.makeQueue(label: "readers", kind: .concurrent(width: 2))
        s.async(on: db) {
            pthread_rwlock_wrlock(lock)
            world.note("writer locked")
            s.block(for: .seconds(2))  // a write to disk, holding the lock
            world.note("writer unlocks")
            pthread_rwlock_unlock(lock)
        }
        for reader in 1...2 {
            s.asyncAfter(.seconds(1), on: readers) {
                pthread_rwlock_rdlock(lock)
                world.note("reader \(reader) in")
                s.block(for: .seconds(1))  // both read at once
                world.note("reader \(reader) out")
                pthread_rwlock_unlock(lock)
            }
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log.prefix(2) == ["writer locked@0[db]", "writer unlocks@2000[db]"], "\(world.log)")
        #expect(Set(world.log.dropFirst(2)) == ["reader 1 in@2000[readers#1]", "reader 2 in@2000[readers#2]",
                                                 "reader 1 out@3000[readers#1]", "reader 2 out@3000[readers#2]"],
                "\(world.log)")
        #expect(s.deadlock == nil)
        #expect(pthread_rwlock_trywrlock(lock) == 0, "the real lock is free at the end")
        pthread_rwlock_unlock(lock)
    }

    @Test("a timed DispatchSemaphore wait gives up at its virtual deadline, or takes a signal sent before it",
          .enabled(if: supported))
    func timedSemaphoreWait() {
        let world = World()
        let s = world.scheduler
        let never = DispatchSemaphore(value: 0)
        let soon = DispatchSemaphore(value: 0)
        let other = s.makeQueue(label: "other", kind: .serial)
        s.async(on: s.mainQueue) {
            let first = never.wait(timeout: .now() + .seconds(2))
            world.note("never \(first == .timedOut ? "timed out" : "success")")
            s.async(on: other) {
                s.block(for: .seconds(1))
                soon.signal()
            }
            let second = soon.wait(wallTimeout: .now() + .seconds(5))
            world.note("soon \(second == .timedOut ? "timed out" : "success")")
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == ["never timed out@2000[main]", "soon success@3000[main]"])
    }

    @Test("DispatchGroup.wait returns once every member left, each on its own thread", .enabled(if: supported))
    func groupWait() {
        let world = World()
        let s = world.scheduler
        let group = DispatchGroup()
        let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 2))
        s.async(on: s.mainQueue) {
            for seconds in [1, 4] {
                group.enter()
                s.async(on: workers) {
                    s.block(for: .seconds(Int64(seconds)))
                    world.note("left \(seconds)")
                    group.leave()
                }
            }
            group.wait()
            world.note("all done")
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == ["left 1@1000[workers#1]", "left 4@4000[workers#2]", "all done@4000[main]"])
    }

    @Test("a DispatchSemaphore nothing will signal is a deadlock once nothing else can run", .enabled(if: supported))
    func semaphoreDeadlock() throws {
        let world = World()
        let s = world.scheduler
        let never = DispatchSemaphore(value: 0)
        s.async(on: s.mainQueue) {
            never.wait()
            world.note("never")
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        let report = try #require(s.deadlock)
        #expect(report.description == "thread \"main\" waits for DispatchSemaphore #1 (a real one: only a signal or leave from the run's threads wakes it)")
        s.discardPendingJobs()
        #expect(world.log == ["never@0[main]"], "teardown gives the wait up; the job runs on to its end")
    }
}
