@testable import DeterministicSimulation
import Foundation
import Testing

/// App code written with plain Swift concurrency (the real `@MainActor`, `Task {}`,
/// `Task.sleep`, `ContinuousClock`, `Date()`) runs inside a run as written: on the run's
/// simulated main queue and tasks queue, on virtual time, deterministically (ProcessExecutors,
/// VirtualClocks).
@Suite("Plain Swift concurrency in a run")
struct PlainConcurrencyTests {
    static let seed = Seed(0x33a1_0000_0000_0001)

    /// A scheduler with Swift concurrency enabled, and a log of its virtual times.
    static func asyncRun(seed: Seed = seed) -> (Scheduler, PlainLog) {
        let scheduler = Scheduler(choices: ChoiceSource(seed: seed))
        scheduler.enableAsync()
        return (scheduler, PlainLog(scheduler))
    }

    @Test("the engine's executors are the process's, and the clocks are virtual on Linux")
    func installed() {
        #expect(ProcessExecutors.isInstalled)
        #if os(Linux)
            #expect(VirtualClocks.isSupported)
        #endif
    }

    @Test("a real @MainActor hop and MainActor.run from a Task {} run as jobs of the run's main queue")
    func mainActorHops() {
        let (scheduler, log) = Self.asyncRun()
        scheduler.async(at: .seconds(1), on: scheduler.mainQueue) {
            Task {
                log.note("task on \(log.place)")
                await MainActor.run { log.note("MainActor.run on \(log.place)") }
                await PlainModel.make(log: log).bump()
            }
        }
        _ = scheduler.run(until: .seconds(2))
        #expect(log.lines == [
            "1.000000s task on tasks", "1.000000s MainActor.run on main", "1.000000s bump on main",
        ])
        #expect(scheduler.asyncEscapes.isEmpty, "\(scheduler.asyncEscapes)")
        scheduler.teardownAsync()
    }

    @Test("MainActor.assumeIsolated passes in a plain job of the simulated main queue (an expiration handler's place)")
    func assumeIsolatedInMainQueueCallback() {
        let (scheduler, log) = Self.asyncRun()
        scheduler.async(on: scheduler.mainQueue) {
            MainActor.assumeIsolated { log.note("isolated") }
        }
        _ = scheduler.run(until: .seconds(1))
        #expect(log.lines == ["0.000000s isolated"])
        scheduler.teardownAsync()
    }

    @Test("Task.sleep(for:), Task.sleep(nanoseconds:) and a ContinuousClock sleep wake at exact virtual times")
    func sleepsOnVirtualTime() {
        let (scheduler, log) = Self.asyncRun()
        scheduler.async(at: .seconds(3), on: scheduler.mainQueue) {
            Task {
                let clock = ContinuousClock()
                let started = clock.now
                try await Task.sleep(for: .seconds(5))
                log.note("after 5 s, elapsed \(clock.now - started)")
                try await Task.sleep(nanoseconds: 1_500_000)
                log.note("after 1.5 ms")
                try await clock.sleep(for: .milliseconds(250))
                try await SuspendingClock().sleep(until: .now + .seconds(1))
                log.note("after 1.25 s more")
            }
        }
        _ = scheduler.run(until: .seconds(60))
        #expect(log.lines == [
            "8.000000s after 5 s, elapsed 5.0 seconds", "8.001500s after 1.5 ms", "9.251500s after 1.25 s more",
        ])
        #expect(scheduler.asyncEscapes.isEmpty, "\(scheduler.asyncEscapes)")
        scheduler.teardownAsync()
    }

    #if os(Linux)
        @Test("Date() and ContinuousClock.now read the run's virtual time inside a job, real time outside")
        func clocksAreVirtualInsideRuns() {
            let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
            let seen = PlainTimes()
            scheduler.async(on: scheduler.mainQueue) { seen.start = ContinuousClock.now }
            scheduler.async(at: .milliseconds(2_500), on: scheduler.mainQueue) {
                seen.date = Date()
                seen.later = ContinuousClock.now
            }
            _ = scheduler.run(until: .seconds(3))
            let epoch = Date(timeIntervalSince1970: TimeInterval(VirtualClocks.epochSeconds))
            #expect(seen.date == epoch.addingTimeInterval(2.5))
            #expect(seen.start.map { start in seen.later.map { start.duration(to: $0) } } == .milliseconds(2_500))
            // Outside the run: the real clocks (this machine's date is not the virtual epoch's).
            #expect(abs(Date().timeIntervalSince(epoch)) > 60)
        }
    #endif

    @Test("a cancelled Task.sleep wakes at once with CancellationError at the virtual time of the cancel")
    func cancelledSleep() {
        let (scheduler, log) = Self.asyncRun()
        let box = PlainTaskBox()
        scheduler.async(on: scheduler.mainQueue) {
            box.task = Task {
                do { try await Task.sleep(for: .seconds(100)) } catch { log.note("woke: \(type(of: error))") }
            }
        }
        scheduler.async(at: .milliseconds(7_250), on: scheduler.mainQueue) { box.task?.cancel() }
        _ = scheduler.run(until: .seconds(10))
        #expect(log.lines == ["7.250000s woke: CancellationError"])
        scheduler.teardownAsync()
    }

    @Test("a retry loop with Task.sleep left asleep when the run ends is cancelled at teardown and ends")
    func sleepingLoopEndsAtTeardown() {
        let (scheduler, log) = Self.asyncRun()
        scheduler.async(on: scheduler.mainQueue) {
            Task {
                while true {
                    do { try await Task.sleep(for: .seconds(1)) } catch { log.note("cancelled"); return }
                }
            }
        }
        _ = scheduler.run(until: .milliseconds(3_500))
        let drain = scheduler.drainAsync()
        #expect(log.lines.last?.hasSuffix("cancelled") == true)
        #expect(drain.jobsLeft == 0)
        _ = scheduler.discardPendingJobs()
        scheduler.releaseAsync()
    }

    @Test("a run with real main-actor hops, Task {} and sleeps replays exactly per seed and varies across seeds")
    func deterministic() {
        let first = PlainRace.run(seed: Self.seed)
        #expect(PlainRace.run(seed: Self.seed) == first)
        let orders = Set((1...12).map { PlainRace.run(seed: Seed(UInt64($0))) })
        #expect(orders.count > 1, "the seed should decide the order of ready tasks")
    }

    @Test("runs executing at once in one process each keep their own jobs and give their own results")
    func parallelRuns() async {
        let seeds = (1...8).map { Seed(UInt64($0) &* 0x9e37) }
        let alone = seeds.map { PlainRace.run(seed: $0) }
        let together = await withTaskGroup(of: (Int, [String]).self) { group in
            for (index, seed) in seeds.enumerated() {
                group.addTask { (index, PlainRace.run(seed: seed)) }
            }
            var results = Array(repeating: [String](), count: seeds.count)
            for await (index, lines) in group { results[index] = lines }
            return results
        }
        #expect(together == alone)
    }

    @Test("an AsyncStream fed by a main-actor producer and read by a task, with a task group and async let, replays exactly")
    func streamsAndStructuredTasks() {
        func run(_ seed: Seed) -> [String] {
            let (scheduler, log) = Self.asyncRun(seed: seed)
            scheduler.async(on: scheduler.mainQueue) {
                let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
                Task { @MainActor in
                    for value in 1...3 {
                        continuation.yield(value)
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                    continuation.finish()
                }
                Task {
                    var sum = 0
                    for await value in stream { sum += value }
                    let total = sum
                    async let doubled = { total * 2 }()
                    let squares = await withTaskGroup(of: Int.self) { group in
                        for value in 1...3 { group.addTask { value * value } }
                        return await group.reduce(0, +)
                    }
                    await Task.yield()
                    log.note("sum \(total), doubled \(await doubled), squares \(squares)")
                }
            }
            _ = scheduler.run(until: .seconds(1))
            scheduler.teardownAsync()
            return log.lines
        }
        let first = run(Self.seed)
        #expect(first == ["0.300000s sum 6, doubled 12, squares 14"])
        #expect(run(Self.seed) == first)
    }

    @Test("a Task {} in a run without an async domain is an escape that names the fix")
    func noDomainIsNamed() throws {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        scheduler.async(at: .seconds(2), on: scheduler.mainQueue) {
            Task.detached {}
        }
        _ = scheduler.run(until: .seconds(3))
        let escape = try #require(scheduler.asyncEscapes.first)
        #expect(escape.kind == .globalExecutor)
        #expect(escape.time == .seconds(2))
        #expect(escape.description.contains("usesAsync: true"))
    }
}

/// Three tasks racing through the main actor and sleeps: the order they log in depends on the
/// run's choices only.
enum PlainRace {
    static func run(seed: Seed) -> [String] {
        let (scheduler, log) = PlainConcurrencyTests.asyncRun(seed: seed)
        scheduler.async(on: scheduler.mainQueue) {
            for name in ["a", "b", "c"] {
                Task {
                    log.note("\(name) starts")
                    try? await Task.sleep(for: .milliseconds(10))
                    await MainActor.run { log.note("\(name) on main") }
                    await Task.yield()
                    log.note("\(name) ends")
                }
            }
        }
        _ = scheduler.run(until: .seconds(1))
        scheduler.teardownAsync()
        return log.lines
    }
}

/// A main-actor model as an app writes it (one per log, so that parallel runs do not share it).
@MainActor
final class PlainModel {
    private var count = 0
    private let log: PlainLog

    private init(log: PlainLog) {
        self.log = log
    }

    static func make(log: PlainLog) -> PlainModel {
        PlainModel(log: log)
    }

    func bump() {
        count += 1
        log.note("bump on \(log.place)")
    }
}

/// Lines with the virtual time, appended by the run's thread only.
final class PlainLog: @unchecked Sendable {
    private(set) var lines: [String] = []
    private unowned let scheduler: Scheduler

    init(_ scheduler: Scheduler) {
        self.scheduler = scheduler
    }

    func note(_ line: String) {
        lines.append("\(scheduler.now) \(line)")
    }

    /// The running job's queue label.
    var place: String { scheduler.runningQueue.map { scheduler.label(of: $0) } ?? "no queue" }
}

/// Clock readings taken inside a run.
final class PlainTimes: @unchecked Sendable {
    var start: ContinuousClock.Instant?
    var later: ContinuousClock.Instant?
    var date: Date?
}

extension Scheduler {
    /// Teardown as the simulator does it: finish suspended tasks, drop jobs, release executors.
    func teardownAsync() {
        drainAsync()
        _ = discardPendingJobs()
        releaseAsync()
    }
}

/// A task handle set and read on the run's main queue.
final class PlainTaskBox: @unchecked Sendable {
    var task: Task<Void, Never>?
}
