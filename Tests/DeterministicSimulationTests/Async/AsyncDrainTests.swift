import DeterministicSimulation
import Testing

/// Teardown finishes the tasks a run left suspended instead of abandoning them (a suspended Swift
/// task is never freed): `Scheduler.drainAsync` cancels sleeping and waiting tasks and runs the
/// task jobs left on frozen or future queues.
@Suite("Async teardown drain")
struct AsyncDrainTests {
    static let seed = Seed(0xa5c0_0000_0000_d4a1)

    /// A run whose main job starts `body` in a task, run until `horizon`, then drained.
    static func drained(
        until horizon: VirtualTime, maxSteps: Int = .max, freezing freeze: Bool = false,
        _ body: @escaping @Sendable (SimulationClock, Notes, SimulationTaskExecutor) async -> Void
    ) -> (drain: AsyncDrainResult, notes: [String], released: Bool) {
        weak var released: Scheduler?
        let notes = Notes()
        let drain: AsyncDrainResult = {
            let scheduler = Scheduler(choices: ChoiceSource(seed: seed))
            released = scheduler
            let tasks = scheduler.enableAsync()
            let clock = scheduler.asyncClock
            scheduler.async(on: scheduler.mainQueue) {
                Task(executorPreference: tasks) { await body(clock, notes, tasks) }
            }
            _ = scheduler.run(until: horizon, maxSteps: maxSteps)
            if freeze { scheduler.freeze(tasks.queue) }
            let drain = scheduler.drainAsync()
            _ = scheduler.discardPendingJobs()
            scheduler.releaseAsync()
            return drain
        }()
        return (drain, notes.lines, released == nil)
    }

    @Test("a task asleep when the run ends is cancelled at teardown and runs to its end")
    func sleepingTaskIsCancelled() {
        let result = Self.drained(until: .seconds(5)) { clock, notes, _ in
            do {
                try await clock.sleep(for: .seconds(60))
                notes.add("woke")
            } catch {
                notes.add("\(type(of: error)) at \(clock.now)")
            }
        }
        #expect(result.notes == ["CancellationError at 5.000000s"])
        #expect(result.drain.tasksCancelled == 1 && result.drain.tasksLeftWaiting == 0)
        #expect(result.released, "the scheduler outlived its run")
    }

    @Test("a task job waiting on a frozen queue runs at teardown; a later sleep is cancelled at once")
    func frozenJobRuns() {
        // One step: the main job starts the task, whose first job is left on the frozen queue.
        let result = Self.drained(until: .seconds(5), maxSteps: 1, freezing: true) { clock, notes, tasks in
            notes.add("started")
            let child = Task(executorPreference: tasks) {
                do { try await clock.sleep(for: .seconds(1)) } catch { notes.add("child \(type(of: error))") }
            }
            await child.value
            notes.add("joined")
        }
        #expect(result.notes == ["started", "child CancellationError", "joined"])
        #expect(result.drain.jobsRun >= 3 && result.drain.tasksLeftWaiting == 0)
        #expect(result.released)
    }

    @Test("a continuation that the cancellation handler never resumes is counted, not hidden")
    func neverResumedIsCounted() {
        let result = Self.drained(until: .seconds(5)) { _, notes, tasks in
            await tasks.withCancellableWait {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in
                        notes.add("parked")  // the bug: nothing resumes it, not even on cancel
                    }
                } onCancel: {
                    notes.add("cancelled")
                }
            }
            notes.add("never")
        }
        #expect(result.notes == ["parked", "cancelled"])
        #expect(result.drain.tasksCancelled == 1 && result.drain.tasksLeftWaiting == 1)
    }

    @Test("the same wait resumed by its cancellation handler ends, and nothing is left")
    func resumedOnCancelEnds() {
        let result = Self.drained(until: .seconds(5)) { _, notes, tasks in
            let box = ContinuationBox()
            await tasks.withCancellableWait {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { box.continuation = $0 }
                } onCancel: {
                    box.continuation?.resume()
                }
            }
            notes.add("resumed")
        }
        #expect(result.notes == ["resumed"])
        #expect(result.drain.tasksLeftWaiting == 0)
        #expect(result.released)
    }

    @Test("a task that keeps making jobs stops at the drain's job limit")
    func jobLimit() {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Self.seed))
        let tasks = scheduler.enableAsync()
        scheduler.async(on: scheduler.mainQueue) {
            Task(executorPreference: tasks) {
                while true { await Task.yield() }  // ignores cancellation: never ends
            }
        }
        _ = scheduler.run(until: .milliseconds(1), maxSteps: 50)
        let drain = scheduler.drainAsync(maxJobs: 200)
        #expect(drain.jobsRun == 200 && drain.jobsLeft == 1)
        _ = scheduler.discardPendingJobs()
        scheduler.releaseAsync()
    }
}

/// Holds a continuation for a cancellation handler (set and read on the run's thread only).
final class ContinuationBox: @unchecked Sendable {
    var continuation: CheckedContinuation<Void, Never>?
}
