import DeterministicSimulation

/// What an async workload records: one line per event, with the virtual time, isolated to the
/// run's simulated main actor (each run has its own instance).
@SimulatedMainActor
final class AsyncTrace {
    private(set) var events: [String] = []
    /// Continuations of `fetch()` calls waiting for the simulated "network" callback.
    private var waiting: [CheckedContinuation<Int, Never>] = []
    private let clock: SimulationClock

    nonisolated init(clock: SimulationClock) {
        self.clock = clock
    }

    func note(_ event: String) {
        events.append("\(clock.now) \(event)")
    }

    /// A completion-handler API bridged with a continuation: resumed by ``deliver(_:)``.
    func fetch() async -> Int {
        await withCheckedContinuation { waiting.append($0) }
    }

    /// The callback side: resumes every waiting fetch, in order.
    func deliver(_ value: Int) {
        note("deliver \(value) to \(waiting.count)")
        let resumed = waiting
        waiting.removeAll()
        for continuation in resumed { continuation.resume(returning: value) }
    }

    /// The digest of the events (order and times).
    var digest: UInt64 {
        var hasher = StableHasher()
        for event in events { hasher.combine(event) }
        return hasher.finalize()
    }
}

/// The async workload of the tests: tasks, sleeps, a task group, `async let`, a continuation
/// resumed by a callback job, `Task.yield`, and a long sleep cancelled by a main-queue job.
/// Every task is started inside a scheduler job with the run's executor preference.
enum AsyncWorkload {
    struct Outcome {
        let events: [String]
        let digest: UInt64
        let escapes: [AsyncEscape]
        let stop: SchedulerStop
        let preemptions: Int
    }

    /// Runs the workload once on a new scheduler; `configuration` enables controlled
    /// concurrency on `pool`.
    static func run(
        choices: ChoiceSource, configuration: ConcurrencyConfiguration? = nil, pool: SimulatedThreadPool? = nil,
        escape: Bool = false
    ) -> Outcome {
        let scheduler = Scheduler(choices: choices)
        if let configuration { scheduler.enableControlledConcurrency(configuration, pool: pool ?? SimulatedThreadPool()) }
        let tasks = scheduler.enableAsync(taskWidth: 3)
        let clock = scheduler.asyncClock
        let trace = AsyncTrace(clock: clock)
        scheduler.async(on: scheduler.mainQueue) {
            start(tasks: tasks, clock: clock, trace: trace, escape: escape)
        }
        scheduler.async(at: .seconds(3), on: scheduler.mainQueue) {
            SimulatedMainActor.assumeIsolated { trace.deliver(42) }
        }
        let stop = scheduler.run(until: .seconds(200), maxSteps: 100_000)
        let outcome = Outcome(
            events: snapshot(trace, scheduler: scheduler), digest: 0, escapes: scheduler.asyncEscapes, stop: stop,
            preemptions: scheduler.preemptionCount)
        _ = scheduler.discardPendingJobs()
        var hasher = StableHasher()
        for event in outcome.events { hasher.combine(event) }
        return Outcome(
            events: outcome.events, digest: hasher.finalize(), escapes: outcome.escapes, stop: outcome.stop,
            preemptions: outcome.preemptions)
    }

    /// The trace's events, read in a main-queue job of the finished run.
    static func snapshot(_ trace: AsyncTrace, scheduler: Scheduler) -> [String] {
        nonisolated(unsafe) var events: [String] = []
        scheduler.async(on: scheduler.mainQueue) {
            events = SimulatedMainActor.assumeIsolated { trace.events }
        }
        _ = scheduler.runUntilIdle(maxSteps: 10)
        return events
    }

    /// The main-queue job that starts the tasks.
    static func start(tasks: SimulationTaskExecutor, clock: SimulationClock, trace: AsyncTrace, escape: Bool) {
        Task(executorPreference: tasks) {
            for tick in 1...3 {
                try await clock.sleep(for: .seconds(1))
                await trace.note("ticker \(tick)")
            }
        }
        Task(executorPreference: tasks) {
            let total = await withTaskGroup(of: Int.self) { group in
                for child in 1...3 {
                    group.addTask {
                        try? await clock.sleep(for: .milliseconds(500 * Int64(child)))
                        await trace.note("child \(child)")
                        return child
                    }
                }
                return await group.reduce(0, +)
            }
            async let left = fetchTwice(trace)
            async let right = yieldThenNote(trace)
            let sum = await left + right
            await trace.note("group \(total) lets \(sum)")
        }
        let sleeper = Task(executorPreference: tasks) {
            do {
                try await clock.sleep(for: .seconds(100))
                await trace.note("sleeper woke normally")
            } catch {
                await trace.note("sleeper \(type(of: error))")
            }
        }
        Task(executorPreference: tasks) {
            try await clock.sleep(for: .seconds(5))
            sleeper.cancel()
            await trace.note("cancelled the sleeper")
        }
        if escape {
            Task.detached { await trace.note("detached") }
        }
    }

    static func fetchTwice(_ trace: AsyncTrace) async -> Int {
        let value = await trace.fetch()
        await trace.note("fetched \(value)")
        return value
    }

    static func yieldThenNote(_ trace: AsyncTrace) async -> Int {
        for round in 1...3 {
            await Task.yield()
            await trace.note("yield \(round)")
        }
        return 1
    }
}
