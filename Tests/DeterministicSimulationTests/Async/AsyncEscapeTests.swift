import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Work that leaves a run's deterministic world is reported, naming what escaped; a correct
/// run reports nothing.
@Suite("Async escapes")
struct AsyncEscapeTests {
    static let seed = Seed(0xa5c0_0000_0000_0e5c)

    @Test("a Task.detached in a run is kept in the run (the process's executors): no escape, and it replays exactly")
    func detachedStaysInTheRun() {
        let first = AsyncWorkload.run(choices: ChoiceSource(seed: Self.seed), escape: true)
        let again = AsyncWorkload.run(choices: ChoiceSource(seed: Self.seed), escape: true)
        #expect(first.escapes.isEmpty, "\(first.escapes)")
        #expect(first.events.contains { $0.hasSuffix(" detached") }, "\(first.events)")
        #expect(first.digest == again.digest)
    }

    @Test("without the process's executors (the fallback), a Task.detached is reported as a global-executor escape")
    func detachedEscapesInFallback() throws {
        // The fallback's hook path, as it runs when BGSIM_PROCESS_EXECUTORS=off: a run without an
        // async domain cannot keep the job either, and names the construct and the fix.
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        scheduler.async(on: scheduler.mainQueue) { Task.detached {} }
        _ = scheduler.run(until: .seconds(1))
        let first = try #require(scheduler.asyncEscapes.first)
        #expect(first.kind == .globalExecutor)
        #expect(first.time == .zero)
        #expect(first.place == "main")
        #expect(first.description.hasPrefix("at 0.000000s on simulated queue 'main': a job reached Swift's real global executor"))
    }

    @Test("the correct workload reports no escape, with or without controlled concurrency")
    func correctRunHasNoEscape() {
        let plain = AsyncWorkload.run(choices: ChoiceSource(seed: Self.seed))
        let threaded = AsyncWorkload.run(
            choices: ChoiceSource(seed: Self.seed), configuration: .randomWalk(preemptionRate: 0.2))
        #expect(plain.escapes.isEmpty)
        #expect(threaded.escapes.isEmpty)
    }

    @Test("a Task {} started by a plain job runs inside the run at the job's time, with no escape")
    func plainTaskRunsInside() {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        scheduler.enableAsync()
        let ran = Flag()
        scheduler.async(at: .seconds(2), on: scheduler.mainQueue) {
            Task { ran.set() }
        }
        _ = scheduler.run(until: .seconds(3))
        #expect(ran.isSet)
        #expect(scheduler.asyncEscapes.isEmpty, "\(scheduler.asyncEscapes)")
        _ = scheduler.discardPendingJobs()
    }

    @Test("a real Task.sleep in a task with the run's executor preference sleeps on virtual time")
    func realSleepIsVirtual() {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        let tasks = scheduler.enableAsync()
        let woke = Flag()
        scheduler.async(on: scheduler.mainQueue) {
            Task(executorPreference: tasks) {
                try await Task.sleep(nanoseconds: 1_000_000)
                woke.set()
            }
        }
        _ = scheduler.run(until: VirtualTime(microseconds: 999))
        #expect(!woke.isSet)
        _ = scheduler.run(until: .seconds(1))
        #expect(woke.isSet)
        #expect(scheduler.asyncEscapes.isEmpty, "\(scheduler.asyncEscapes)")
        _ = scheduler.discardPendingJobs()
    }

    @Test("a continuation resumed from a real thread is reported and its task is not let out to a real thread",
          arguments: [true, false])
    func realThreadResumeIsForeign(pinnedToTheRunsExecutor pinned: Bool) async throws {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        let tasks = scheduler.enableAsync()
        let woke = Flag()
        // An SDK's own thread, running before the run: it resumes the continuation it is handed,
        // later. (One the run's code started itself would be a simulated thread of the run.)
        let handedOver = HandedContinuation()
        Thread {
            var continuation: CheckedContinuation<Void, Never>?
            while continuation == nil {
                usleep(1_000)
                continuation = handedOver.take()
            }
            usleep(20_000)
            continuation?.resume()
        }.start()
        let body: @Sendable () async -> Void = {
            await withCheckedContinuation { continuation in handedOver.put(continuation) }
            woke.set()
        }
        scheduler.async(on: scheduler.mainQueue) {
            if pinned { Task(executorPreference: tasks) { await body() } } else { Task { await body() } }
        }
        _ = scheduler.run(until: .seconds(1))
        for _ in 0..<500 where scheduler.asyncEscapes.isEmpty {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        let escape = try #require(scheduler.asyncEscapes.first)
        let expected = pinned ? "a job of a task with the run's executor preference"  // its executor's check
            : "a task of the run resumed (or cancelled) by a real thread"  // the job stamp's
        #expect(escape.kind == .foreignThread(expected))
        #expect(escape.time == nil)
        #expect(escape.description.contains("from a thread outside the run"))
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(!woke.isSet, "the task must not run on a real thread")
        _ = scheduler.discardPendingJobs()
        scheduler.releaseAsync()
    }

    @Test("work sent to a real DispatchQueue is reported where it is sent, at the run's time and place")
    func realDispatchIsNamedAtTheCall() throws {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        scheduler.enableAsync()
        let queue = DispatchQueue(label: "sdk-callbacks")
        scheduler.async(at: .seconds(4), on: scheduler.mainQueue) {
            queue.async {}
        }
        _ = scheduler.run(until: .seconds(5))
        let escape = try #require(scheduler.asyncEscapes.first)
        #expect(escape.kind == .realDispatchQueue(label: "sdk-callbacks", call: "dispatch_async"))
        #expect(escape.description.hasPrefix("at 4.000000s on simulated queue 'main': work sent to a real DispatchQueue ('sdk-callbacks')"))
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
/// A continuation handed from a run's task to a real thread (an SDK's).
final class HandedContinuation: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var continuation: CheckedContinuation<Void, Never>?
    func put(_ given: CheckedContinuation<Void, Never>) {
        lock.wait()
        continuation = given
        lock.signal()
    }
    func take() -> CheckedContinuation<Void, Never>? {
        lock.wait()
        defer { continuation = nil; lock.signal() }
        return continuation
    }
}

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
