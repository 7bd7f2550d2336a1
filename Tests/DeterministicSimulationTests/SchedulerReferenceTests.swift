@testable import DeterministicSimulation
import Testing

/// ``SchedulerReference``: work queues, locks and semaphores call their run's scheduler without
/// keeping it alive or retaining it per call, and a use after the scheduler is gone stops the
/// process (in release builds too) instead of following a dangling pointer.
@Suite("Scheduler reference")
struct SchedulerReferenceTests {
    static func makeScheduler() -> Scheduler {
        Scheduler(choices: ChoiceSource(seed: Seed(5)))
    }

    @Test("a call reaches the scheduler, without retaining it")
    func callWhileAlive() {
        var scheduler = Self.makeScheduler()
        let reference = SchedulerReference(scheduler, owner: "SchedulerReferenceTests")
        #expect(reference.call { $0 === scheduler })
        #expect(reference.call { $0.queueCount } == 1)
        #expect(isKnownUniquelyReferenced(&scheduler), "the reference must not retain the scheduler")
    }

    @Test("a lock and a semaphore do not keep their scheduler alive")
    func locksDoNotRetain() {
        var scheduler = Self.makeScheduler()
        let lock = scheduler.makeLock(name: "cache")
        let semaphore = scheduler.makeSemaphore(name: "group", value: 1)
        #expect(isKnownUniquelyReferenced(&scheduler))
        #expect(!lock.isLocked && semaphore.value == 1)
    }

    @Test("the scheduler's deinit clears its lifetime flag")
    func lifetimeEndsWithScheduler() {
        var scheduler: Scheduler? = Self.makeScheduler()
        let lifetime = scheduler!.lifetime
        #expect(lifetime.isAlive)
        scheduler = nil
        #expect(!lifetime.isAlive)
    }

    @Test("a lock kept after its scheduler is gone stops the process when used")
    func lockAfterSchedulerIsGoneTraps() async {
        await #expect(processExitsWith: .failure) {
            var scheduler: Scheduler? = SchedulerReferenceTests.makeScheduler()
            let lock = scheduler!.makeLock(name: "late")
            scheduler = nil
            lock.lock()
        }
    }
}
