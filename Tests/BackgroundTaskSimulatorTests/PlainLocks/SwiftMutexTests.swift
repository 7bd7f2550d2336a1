import DeterministicSimulation
import Synchronization
import Testing

/// Swift's own `Mutex` (Synchronization) taken on simulated threads, as Swift 6 code guards its
/// state: on Linux it is a priority-inheritance futex, whose contended lock and unlock go through
/// `syscall(SYS_futex, …)`; the shim does those here when the owner is a thread of the run, so a
/// `Mutex` another simulated thread holds blocks only its caller. Before, the caller waited in the
/// kernel for a holder that could never run (the run hung until its timeout; with fibers Swift
/// trapped: "Recursive call to lock Mutex").
@Suite(.enabled(if: Scheduler.tracksPlainLocks))
struct SwiftMutexTests {
    /// A `Mutex` shared by the jobs (it cannot be captured itself: it is not copyable).
    final class Shared: Sendable {
        let state = Mutex(0)
    }

    /// A scheduler with threads but no preemption (choices replay as 0), and a log.
    final class World {
        let scheduler: Scheduler
        var log: [String] = []

        init(carriers: SimulatedThreadPool.Carriers) {
            scheduler = Scheduler(choices: ChoiceSource(replaying: ChoiceSequence([])))
            scheduler.enableControlledConcurrency(.blockingOnly, pool: SimulatedThreadPool(carriers: carriers))
        }

        func note(_ name: String) {
            log.append("\(name)@\(scheduler.now.microseconds / 1_000)[\(scheduler.currentThreadLabel ?? "-")]")
        }

        deinit { scheduler.discardPendingJobs() }
    }

    /// A world on `carriers`, its scheduler, a shared `Mutex` and a queue named `label`.
    static func world(_ carriers: SimulatedThreadPool.Carriers, queue label: String)
        -> (World, Scheduler, Shared, QueueID) {
        let world = World(carriers: carriers)
        return (world, world.scheduler, Shared(), world.scheduler.makeQueue(label: label, kind: .serial))
    }

    @Test("a Mutex held across a blocking call makes the other thread wait for it, then go on",
          arguments: [SimulatedThreadPool.Carriers.fibers, .osThreads])
    func heldMutexBlocksOnlyTheWaiter(carriers: SimulatedThreadPool.Carriers) {
        let (world, s, shared, db) = Self.world(carriers, queue: "db")
        s.async(on: db) {
            shared.state.withLock { value in
                world.note("db locked")
                s.block(for: .seconds(2))  // a write to disk, holding the lock
                value += 1
                world.note("db unlocks")
            }
        }
        s.asyncAfter(.seconds(1), on: s.mainQueue) {
            world.note("main wants it")
            let value = shared.state.withLock { $0 }
            world.note("main read \(value)")
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == [
            "db locked@0[db]", "main wants it@1000[main]", "db unlocks@2000[db]", "main read 1@2000[main]",
        ])
        #expect(s.deadlock == nil)
        #expect(shared.state.withLockIfAvailable { _ in true } == true, "the Mutex is free at the end")
    }

    @Test("three waiters all wake at the release and take the Mutex in turn",
          arguments: [SimulatedThreadPool.Carriers.fibers, .osThreads])
    func severalWaiters(carriers: SimulatedThreadPool.Carriers) {
        let (world, s, shared, holder) = Self.world(carriers, queue: "holder")
        s.async(on: holder) {
            shared.state.withLock { _ in s.block(for: .seconds(1)) }
        }
        for name in ["a", "b", "c"] {
            let queue = s.makeQueue(label: name, kind: .serial)
            s.asyncAfter(.milliseconds(100), on: queue) {
                shared.state.withLock { value in
                    value += 1
                    world.note("\(name) in \(value)")
                    s.block(for: .milliseconds(10))
                }
            }
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == ["a in 1@1000[a]", "b in 2@1010[b]", "c in 3@1020[c]"])
        #expect(s.deadlock == nil)
    }

    @Test("withLockIfAvailable on a Mutex another thread holds fails without waiting; free, it succeeds",
          arguments: [SimulatedThreadPool.Carriers.fibers, .osThreads])
    func tryLock(carriers: SimulatedThreadPool.Carriers) {
        let (world, s, shared, db) = Self.world(carriers, queue: "db")
        s.async(on: db) { shared.state.withLock { _ in s.block(for: .seconds(2)) } }
        s.asyncAfter(.seconds(1), on: s.mainQueue) {
            world.note("try \(shared.state.withLockIfAvailable { _ in true } ?? false)")
        }
        s.asyncAfter(.seconds(3), on: s.mainQueue) {
            world.note("try \(shared.state.withLockIfAvailable { _ in true } ?? false)")
        }
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(world.log == ["try false@1000[main]", "try true@3000[main]"])
    }
}
