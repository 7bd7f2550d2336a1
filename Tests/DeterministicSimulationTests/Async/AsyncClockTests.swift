import DeterministicSimulation
import Testing

/// The run's virtual `Clock`: sleeps on virtual time, cancellation wakes at once.
@Suite("Simulation clock")
struct AsyncClockTests {
    static let seed = Seed(0xa5c0_0000_0000_c10c)

    /// Runs `body` as a task of a new run until `horizon`; returns what it noted.
    static func run(until horizon: VirtualTime, _ body: @escaping @Sendable (SimulationClock, Notes, SimulationTaskExecutor) async -> Void)
        -> [String]
    {
        let scheduler = Scheduler(choices: ChoiceSource(seed: seed))
        let tasks = scheduler.enableAsync()
        let clock = scheduler.asyncClock
        let notes = Notes()
        scheduler.async(on: scheduler.mainQueue) {
            Task(executorPreference: tasks) { await body(clock, notes, tasks) }
        }
        _ = scheduler.run(until: horizon)
        #expect(scheduler.asyncEscapes.isEmpty)
        _ = scheduler.discardPendingJobs()
        return notes.lines
    }

    @Test("sleep(for:) resumes exactly at the deadline of virtual time; now and durations follow it")
    func sleepsOnVirtualTime() {
        let lines = Self.run(until: .seconds(10)) { clock, notes, _ in
            let start = clock.now
            try? await clock.sleep(for: .milliseconds(1_250))
            notes.add("\(clock.now) after \(start.duration(to: clock.now))")
            try? await clock.sleep(until: start.advanced(by: .seconds(1)), tolerance: nil)
            notes.add("\(clock.now) past deadline")
        }
        #expect(lines == ["1.250000s after 1.25 seconds", "1.250000s past deadline"])
    }

    @Test("cancelling a sleeping task wakes it with CancellationError at the virtual time of the cancellation")
    func cancellationWakesAtOnce() {
        let lines = Self.run(until: .seconds(200)) { clock, notes, tasks in
            let sleeper = Task(executorPreference: tasks) {
                do {
                    try await clock.sleep(for: .seconds(100))
                    notes.add("\(clock.now) woke normally")
                } catch {
                    notes.add("\(clock.now) \(type(of: error))")
                }
            }
            try? await clock.sleep(for: .milliseconds(7_250))
            sleeper.cancel()
            await sleeper.value
            notes.add("\(clock.now) joined")
        }
        #expect(lines == ["7.250000s CancellationError", "7.250000s joined"])
    }

    @Test("a task cancelled before it sleeps throws CancellationError without suspending")
    func alreadyCancelled() {
        let lines = Self.run(until: .seconds(5)) { clock, notes, _ in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await clock.sleep(for: .seconds(1))
                notes.add("slept")
            } catch {
                notes.add("\(clock.now) \(type(of: error))")
            }
        }
        #expect(lines == ["0.000000s CancellationError"])
    }
}

/// Lines noted by a run's tasks (only ever touched by the run's thread, one at a time).
final class Notes: @unchecked Sendable {
    private(set) var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}
