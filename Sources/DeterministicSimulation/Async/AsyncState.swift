import Synchronization
import ThreadSanitizerSupport

/// The Swift concurrency state of one run: its executors and clock (once
/// ``Scheduler/enableAsync(taskWidth:mainQueue:)`` was called) and the escapes seen.
///
/// ```swift
/// scheduler.enableAsync()                // makes the state, the executors and the clock
/// scheduler.asyncState?.record(.realMainActor, scheduler: scheduler)   // what the hooks do
/// ```
///
/// Contract: ``escapes`` is the only part touched from outside the run (a foreign thread that
/// resumed a continuation records its escape), so it alone is behind a lock; everything else is
/// touched only by the thread running the run's jobs (the baton holder), like the scheduler.
/// At most ``escapeLimit`` escapes are kept per run; ``escapesDropped`` counts the rest.
final class AsyncState: @unchecked Sendable {
    // @unchecked Sendable: `escapes` is a Mutex; the other fields are written once by
    // `Scheduler.enableAsync` before any job runs and read only by the run's baton holder.

    /// The most escapes kept per run: a task that escaped usually escapes again at each resumption.
    static let escapeLimit = 64

    /// The escapes seen, in order, and how many more were dropped beyond ``escapeLimit``.
    let escapes = Mutex<(kept: [AsyncEscape], dropped: Int)>(([], 0))
    /// The run's executors and clock; nil until ``Scheduler/enableAsync(taskWidth:mainQueue:)``.
    var taskExecutor: SimulationTaskExecutor?
    var mainExecutor: SimulationMainExecutor?
    var clock: SimulationClock?
    /// The run's simulated main thread (``Scheduler/setMainThread(_:)``): where the real main
    /// actor's isolation checks pass. Set by the simulator for every process, async or not.
    var mainThreadQueue: QueueID?
    /// Blocks of the main queue running in place on another thread (``Scheduler/runInPlaceOfMainThread(_:)``).
    var mainInPlaceDepth = 0
    /// Executors replaced by ``Scheduler/beginAsyncDomain(label:taskWidth:mainQueue:)``: kept
    /// alive until the run ends, because jobs and tasks of the previous domain still refer to
    /// them (unowned).
    var retired: [AnyObject] = []
    /// The task jobs and waiting tasks the simulator holds, for the teardown drain.
    let ledger = AsyncLedger()

    /// Records an escape seen by the thread running `scheduler`'s job (so it may read the clock
    /// and the running queue).
    func record(_ kind: AsyncEscape.Kind, scheduler: Scheduler) {
        append(AsyncEscape(kind: kind, time: scheduler.now, place: scheduler.runningPlace))
    }

    /// Records an escape seen from a thread outside the run (no time, no place: reading the
    /// scheduler from there would itself be a race). Dropped when the run already recorded an
    /// escape on its own thread: that one caused this (a real queue's callback follows the call
    /// that sent it there) and, unlike this one, comes at a reproducible point of the run.
    func recordForeign(_ what: String) {
        append(AsyncEscape(kind: .foreignThread(what), time: nil, place: nil), unlessCaused: true)
    }

    private func append(_ escape: AsyncEscape, unlessCaused: Bool = false) {
        escapes.withAnnotatedLock { log in
            if unlessCaused, log.kept.contains(where: { $0.time != nil }) { return }
            if log.kept.count < Self.escapeLimit {
                log.kept.append(escape)
            } else {
                log.dropped += 1
            }
        }
    }
}

extension Scheduler {
    /// The run's async state, made on first use (by the baton holder: a hook on a marked thread,
    /// or ``enableAsync(taskWidth:mainQueue:)``).
    var asyncStateMakingIfNeeded: AsyncState {
        if let asyncState { return asyncState }
        let made = AsyncState()
        asyncState = made
        return made
    }

    /// The queue of the running job, if any: the current simulated thread's queue with controlled
    /// concurrency, else the job the core took.
    var runningQueue: QueueID? {
        if let threads { return threads.currentQueueIndex.map { QueueID(rawValue: $0) } }
        return core.isRunningJob ? QueueID(rawValue: core.taken.queue) : nil
    }

    /// The running simulated thread's label, or the running job's queue label; for messages.
    var runningPlace: String? {
        if let label = threads?.currentLabel { return label }
        return runningQueue.map { label(of: $0) }
    }
}
