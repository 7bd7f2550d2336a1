/// The serial executor of one run's simulated main actor: jobs isolated to
/// ``SimulatedMainActor`` run as jobs of the run's main queue, so they share the simulated main
/// thread with lifecycle callbacks and expiration handlers and are ordered with them.
///
/// ```swift
/// scheduler.enableAsync(mainQueue: scheduler.mainQueue)   // the simulator passes its main queue
/// Task(executorPreference: scheduler.taskExecutor) { @SimulatedMainActor in
///     model.progress = 1          // runs as a job of the main queue
/// }
/// ```
///
/// Contract: as ``SimulationTaskExecutor``, a job enqueued inside the run is scheduled due now on
/// ``queue`` (FIFO on a serial queue); one from outside the run is recorded as an escape and not
/// run. ``checkIsolated()`` passes exactly when the calling thread is running a job of this run
/// on ``queue``, so `SimulatedMainActor.assumeIsolated` works in plain callback jobs of the main
/// queue (an expiration handler) and traps anywhere else.
package final class SimulationMainExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked Sendable: as SimulationTaskExecutor.

    unowned let scheduler: Scheduler
    let state: AsyncState
    /// The simulated queue the main actor's jobs run on.
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
            state.recordForeign("a job for @SimulatedMainActor")
            return
        }
        state.ledger.schedule(job, on: .main(self), queue: queue, in: scheduler)
    }

    /// Traps unless the calling thread runs a job of this run's main queue.
    package func checkIsolated() {
        precondition(
            isRunningOnQueue,
            "not isolated to @SimulatedMainActor: the calling code does not run as a job of the run's main queue")
    }

    /// Whether the calling thread runs a job of this run on ``queue``.
    var isRunningOnQueue: Bool {
        RunThreadMarker.isMarked(scheduler) && scheduler.runningQueue == queue
    }
}
