extension Scheduler {
    /// Lets go of what a dead process's code still holds, so that the process launched next can
    /// take it: the actors it left scheduled, and the locks and actors held by its threads that
    /// were preempted or asleep mid-job. Call it when a process dies, after freezing its queues.
    ///
    /// ```swift
    /// for queue in process.queues { scheduler.freeze(queue) }   // the process is killed
    /// scheduler.releaseDeadQueues(process.queues)                 // its singletons are free again
    /// ```
    ///
    /// Why: what an app keeps in a `static let` (`actor ImageCache { static let shared = … }`, a
    /// `@globalActor`, a cache behind an `NSLock`) is one object per OS process, shared by every
    /// simulated process of a run; on a device the next process has its own. A dead process's
    /// frozen code would otherwise hold such an object for the rest of the run: an actor whose
    /// turn waits on a frozen queue runs nothing more (Swift schedules no second turn while one is
    /// pending), a lock held by a frozen thread is never released, and the next process's work
    /// on them never happens.
    ///
    /// What runs, inertly (``withInertCalls(_:)``; nothing recorded, no scheduling point or
    /// blocking call takes effect, nothing drawn by the simulation itself):
    /// - each actor turn (the Swift runtime's job that runs an actor's queued jobs) waiting on
    ///   these queues, now: it runs the dead process's jobs queued on the actor, each to its next
    ///   suspension, and what they schedule goes to the frozen queues;
    /// - each thread of these queues that is off the CPU but not blocked (preempted, or asleep
    ///   in a delay or `block(for:)`), at the end of the job running now: it runs to the end of
    ///   its job, releasing the locks it holds (``SimulatedLock``, real mutexes); then the actor
    ///   turns its code left are run too.
    ///
    /// For race detection, the process's life ends here: everything done so far happens before
    /// what runs later (``RaceDetector/processEnded()``).
    ///
    /// Contract: from inside a job of the run, after the queues were frozen. Threads blocked on a
    /// lock, semaphore or `sync` stay frozen (what they hold stays held). Task jobs stay on the
    /// frozen queues (teardown finishes them). Deterministic: queue and thread order.
    public func releaseDeadQueues(_ queues: [QueueID]) {
        races?.call { $0.processEnded() }
        deadQueues.append(contentsOf: queues)
        releaseActorsOfDeadQueues()
        threadsCall?.call { $0.unwindLater(ofQueues: queues.map { core.index(of: $0) }) }
    }

    /// Runs `body` with the simulation's calls inert: every scheduling point and blocking call
    /// (lock, semaphore, `sync`, `block(for:)`) returns at once, as while a run is unwound, a
    /// ``SimulatedLock`` its thread holds is released, every draw of ``choices`` gives its
    /// simplest outcome and moves nothing (``ChoiceSource/isInert``), nothing is recorded for
    /// race detection, and ``onInertCode`` tells the simulator to drop the events it would
    /// record. For code
    /// that runs only because the simulation cannot avoid it (``releaseDeadQueues(_:)``).
    ///
    /// ```swift
    /// scheduler.withInertCalls { pending.run() }
    /// ```
    ///
    /// Contract: inside a job or between jobs; draws nothing itself; the preemption countdown and
    /// the race detector are as before when it returns. Calls nest.
    public func withInertCalls<Result>(_ body: () -> Result) -> Result {
        let mark = enterInertCalls()
        defer { leaveInertCalls(mark) }
        return body()
    }

    /// What ``enterInertCalls()`` changed, to put back.
    struct InertCallsMark {
        var points: Int
        var races: Unretained<RaceDetector>?
        var wasInert: Bool
        var wasUnwinding: Bool
        var choicesWereInert: Bool
    }

    /// Makes the calls inert until ``leaveInertCalls(_:)``.
    func enterInertCalls() -> InertCallsMark {
        let mark = InertCallsMark(
            points: pointsUntilPreemption, races: races, wasInert: inertCode,
            wasUnwinding: threadsCall?.call { $0.setUnwinding(true) } ?? false, choicesWereInert: choices.isInert)
        choices.isInert = true
        races = nil
        inertCode = true
        if !mark.wasInert { onInertCode?(true) }
        return mark
    }

    /// Puts back what ``enterInertCalls()`` changed.
    func leaveInertCalls(_ mark: InertCallsMark) {
        _ = threadsCall?.call { $0.setUnwinding(mark.wasUnwinding) }
        inertCode = mark.wasInert
        if !mark.wasInert { onInertCode?(false) }
        choices.isInert = mark.choicesWereInert
        races = mark.races
        pointsUntilPreemption = mark.points
    }
}
