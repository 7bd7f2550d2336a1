import DeterministicSimulation
import Dispatch
import Testing

/// Work that leaves a run's deterministic world is reported, naming what escaped; a correct
/// run reports nothing.
@Suite("Async escapes")
struct AsyncEscapeTests {
    static let seed = Seed(0xa5c0_0000_0000_0e5c)

    @Test("a Task.detached in a run is reported as a global-executor escape, with time and queue")
    func detachedEscapes() throws {
        let outcome = AsyncWorkload.run(choices: ChoiceSource(seed: Self.seed), escape: true)
        let first = try #require(outcome.escapes.first, "seed: \(Self.seed)")
        #expect(first.kind == .globalExecutor)
        #expect(first.time == .zero)
        #expect(first.place == "main")
        #expect(first.description.hasPrefix("at 0.000000s on simulated queue 'main': a job reached Swift's global executor"))
        #expect(first.description.contains("Task(executorPreference: scheduler.taskExecutor)"))
    }

    @Test("the correct workload reports no escape, with or without controlled concurrency")
    func correctRunHasNoEscape() {
        let plain = AsyncWorkload.run(choices: ChoiceSource(seed: Self.seed))
        let threaded = AsyncWorkload.run(
            choices: ChoiceSource(seed: Self.seed), configuration: .randomWalk(preemptionRate: 0.2))
        #expect(plain.escapes.isEmpty)
        #expect(threaded.escapes.isEmpty)
    }

    @Test("a Task {} started by a plain job is an escape, yet runs inside the run (deterministically)")
    func plainTaskIsRedirected() {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        scheduler.enableAsync()
        let ran = Flag()
        scheduler.async(at: .seconds(2), on: scheduler.mainQueue) {
            Task { ran.set() }
        }
        _ = scheduler.run(until: .seconds(3))
        #expect(ran.isSet)
        #expect(scheduler.asyncEscapes.first?.kind == .globalExecutor)
        #expect(scheduler.asyncEscapes.first?.time == .seconds(2))
        _ = scheduler.discardPendingJobs()
    }

    @Test("a real Task.sleep is reported when its task comes back from a real thread, and is not let in")
    func realSleepIsForeign() async throws {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        let tasks = scheduler.enableAsync()
        let woke = Flag()
        scheduler.async(on: scheduler.mainQueue) {
            Task(executorPreference: tasks) {
                try await Task.sleep(nanoseconds: 1_000_000)
                woke.set()
            }
        }
        _ = scheduler.run(until: .seconds(1))
        for _ in 0..<500 where scheduler.asyncEscapes.isEmpty {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        let escape = try #require(scheduler.asyncEscapes.first)
        #expect(escape.kind == .foreignThread("a job of a task with the run's executor preference"))
        #expect(escape.time == nil)
        #expect(!woke.isSet)
        _ = scheduler.discardPendingJobs()
    }

    @Test("a task started outside every scheduler job is reported and never runs")
    func taskStartedOutsideRun() {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        let tasks = scheduler.enableAsync()
        let ran = Flag()
        Task(executorPreference: tasks) { ran.set() }
        _ = scheduler.run(until: .seconds(1))
        #expect(!ran.isSet)
        #expect(scheduler.asyncEscapes.map(\.kind) == [.foreignThread("a job of a task with the run's executor preference")])
        _ = scheduler.discardPendingJobs()
    }
}

/// A flag set by a task and read by the test (locked: a foreign thread may set it).
final class Flag: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var value = false
    func set() {
        lock.wait()
        value = true
        lock.signal()
    }
    var isSet: Bool {
        lock.wait()
        defer { lock.signal() }
        return value
    }
}
