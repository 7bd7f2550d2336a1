/// The task executor of one run: every job of a task that prefers it (each start and each
/// resumption after an `await`) becomes an ordinary job on a simulated queue of the run's
/// ``Scheduler``, run by the scheduler like any other, never by Swift's global executor.
///
/// ```swift
/// let tasks = scheduler.enableAsync()                  // a concurrent "tasks" queue, width 4
/// scheduler.async(on: scheduler.mainQueue) {
///     Task(executorPreference: tasks) {
///         try await scheduler.asyncClock.sleep(for: .seconds(2))
///         await withTaskGroup(of: Void.self) { group in   // children inherit the preference
///             group.addTask { upload("a") }
///             group.addTask { upload("b") }
///         }
///     }
/// }
/// _ = scheduler.run(until: .seconds(10))
/// ```
///
/// Which queue, and why: a concurrent queue (``queue``, labelled `"tasks"`) of the width given to
/// ``Scheduler/enableAsync(taskWidth:mainQueue:)``. Nonisolated async code runs on the global
/// concurrent executor on a device, in parallel with the main thread and with other tasks; a
/// concurrent simulated queue models exactly that: its first `width` ready jobs are candidates
/// together, so the order in which ready tasks resume is drawn from the run's ``ChoiceSource``
/// (with controlled concurrency, each is also a simulated thread that can be preempted). Running
/// a task's jobs on the queue of the code that started it would serialise tasks with the main
/// queue and hide the races they have on a device.
///
/// Contract: a job enqueued by a thread running this run's job (``RunThreadMarker``) is scheduled
/// due now on ``queue``, in enqueue order. A job enqueued from any other thread (a continuation
/// resumed by a real thread, a `Task(executorPreference:)` created outside every scheduler job)
/// is not let into the run: it is recorded in ``Scheduler/asyncEscapes`` and never runs (its task
/// stays suspended). Preference is inherited by child tasks (`async let`, task groups) but not by
/// `Task {}` or `Task.detached` (checked on Swift 6.3): give those the preference explicitly.
public final class SimulationTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: `scheduler` is touched only on a thread that runs this run's jobs,
    // checked at each enqueue; `state` records foreign enqueues under its lock.

    unowned let scheduler: Scheduler
    let state: AsyncState
    /// The simulated queue the jobs run on.
    public let queue: QueueID

    init(scheduler: Scheduler, state: AsyncState, queue: QueueID) {
        self.scheduler = scheduler
        self.state = state
        self.queue = queue
    }

    /// Takes a job from the runtime: schedules it on ``queue`` when called inside the run.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard RunThreadMarker.isMarked(scheduler) else {
            state.recordForeign("a job of a task with the run's executor preference")
            return
        }
        schedule(job)
    }

    /// Schedules `job` on ``queue`` as this executor's job (or hands it to the teardown drain).
    /// Only on the run's thread.
    func schedule(_ job: UnownedJob) {
        schedule(job, after: nil)
    }

    /// Schedules `job` on ``queue`` after `delay` of virtual time (now if nil), recorded in the
    /// run's ``AsyncLedger`` so that teardown can run it instead of abandoning its task. Only on
    /// the run's thread.
    func schedule(_ job: UnownedJob, after delay: VirtualDuration?) {
        state.ledger.schedule(job, on: .task(self), queue: queue, in: scheduler, after: delay)
    }
}
