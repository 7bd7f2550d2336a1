import Dispatch

/// The simulated threads of one run with controlled concurrency, and the loop that runs them.
///
/// ```swift
/// scheduler.enableControlledConcurrency(.randomWalk(preemptionRate: 0.05), pool: pool)
/// // Scheduler.run(until:) now calls ThreadController.run(until:maxSteps:movesClock:)
/// ```
///
/// How it runs (the ControlledConcurrency article has the reasons): the loop ("decide what runs
/// next, run it") executes on whichever OS thread holds the baton, at the top of that thread's
/// stack. A job starts inline on the loop's OS thread. Only when a job is suspended (preempted at
/// a scheduling point, blocked, or put to sleep) does its OS thread park, mid-job, after handing
/// the baton directly to what runs next: the OS thread of a suspended job being resumed, a pool
/// thread that continues the loop, or the driver (the thread that called `run`) when the run
/// stops. In a plain `run` the driver itself never runs jobs: it hands the loop to a pool thread
/// (only when there is something to run) and waits, so it can return while jobs are suspended.
/// In the run's last call (``runLast(until:maxSteps:atStop:)``) the driver runs the loop itself,
/// like a pool thread (``driverWorker``), so a run that suspends nothing makes no handoff.
/// Throughout a run call the driver and the pool's threads share one CPU (`CPUPlacement` (SimulationRuntime)).
///
/// Invariants: only the baton holder touches this object, the scheduler, or anything of the
/// run; ``current`` is the thread whose job holds the baton (nil at loop level);
/// ``suspendedCount`` counts the threads with a job in progress off the CPU, each of which
/// occupies a thread of its queue in the core (``SchedulerCore/occupyThread(ofQueue:)``).
final class ThreadController {
    /// What runs next. A plain value: it names its thread by id (its index in
    /// ``State/threads``).
    enum Decision {
        /// The run stops (the driver's `run` returns this).
        case stop(SchedulerStop)
        /// Start the job in ``pendingWork`` on the thread with this id.
        case start(Int)
        /// Resume the suspended thread with this id.
        case resume(Int)
    }

    /// The scheduler that owns this controller (and outlives it): unowned(unsafe), since every
    /// decision reads it and a checked unowned reference cost a retain and a release each time.
    unowned(unsafe) let scheduler: Scheduler
    /// The scheduler's clock and choices, held here so that reading them (every decision does)
    /// borrows instead of retaining them through the unowned scheduler.
    let clock: VirtualClock
    let choices: ChoiceSource
    let configuration: ConcurrencyConfiguration
    /// The OS threads carrying this run's simulated threads: the one given, or a pool of its own
    /// when the given one serves another live scheduler (see ``run(until:maxSteps:movesClock:)``).
    private(set) var pool: SimulatedThreadPool {
        didSet { poolCall = Unretained(pool) }
    }
    /// The same pool, called without a retain and release by the loop's handoffs (``pool`` keeps
    /// it alive; reading that property for a call retained it).
    private(set) var poolCall: Unretained<SimulatedThreadPool>
    /// How long a preempted thread is kept off the CPU (either policy).
    let delay: PreemptionDelay
    /// The driver's OS thread seen as a worker (made by the pool, so a fiber when the pool carries
    /// fibers): it parks in it while the loop runs elsewhere, and in the last run call it also
    /// runs the loop and starts jobs inline, like a pool worker (it is never put in the pool).
    private(set) var driverWorker: PoolWorker

    /// The mutable state of the run's threads, in one place. Unchecked exclusivity: only the
    /// baton holder touches it, no access spans a call that could reach it again (jobs run with
    /// values read out of it first), and the dynamic checks cost about a tenth of a threaded
    /// run's instructions.
    struct State {
        /// Every simulated thread made so far, at the index of its id (creation order).
        var threads: [SimulatedThread] = []
        /// Thread ids by queue index, then slot; made on first use.
        var queueThreads: [[Int]] = []
        /// The id of the thread whose job holds the baton; nil at loop level.
        var current: Int?
        /// The ids of the threads with a job in progress off the CPU on a queue that is not
        /// frozen, ascending: the only threads a decision looks at (a run has a dozen threads,
        /// rarely more than two of them off the CPU on a live queue at once).
        var suspended: [Int] = []
        /// The ids of the threads with a job in progress off the CPU on a frozen queue, ascending:
        /// a suspended app's, and a killed one's, which stay there for good. Kept apart (moved
        /// when their queue freezes or thaws: ``refileSuspended(ofQueue:frozen:)``) so that
        /// decisions do not pass over them: each kill of chat-outbox's app left its threads in
        /// the one list, eight on average, and every decision read them.
        var frozenSuspended: [Int] = []
        /// No thread of ``frozenSuspended`` sleeps until before this time: the earliest wake-up
        /// among them when last worked out, lowered as sleepers join (`.max`: none sleeps). A
        /// wake-up by an earlier time skips the list (``ThreadController/wakeSleepers(by:)``):
        /// notes-import keeps a killed process's threads there, and each of its many sleeps
        /// looked at all of them.
        var frozenWakeFloor = Int64.max
        var suspendedCount: Int { suspended.count + frozenSuspended.count }
        /// The closure of the job a `.start` decision took off its queue, until it runs.
        var pendingWork: (() -> Void)?

        /// The current `run` call: its limit, steps left, whether it moves the clock to the limit at
        /// the end, steps taken and the stop it returns.
        var limit: Int64 = 0
        var stepsLeft = 0
        var stepsTaken = 0
        var movesClockToLimit = true
        var result = SchedulerStop.idle
        /// Set when the run deadlocked; every later `run` returns `.idle` at once.
        var deadlock: DeadlockReport?
        /// Set while ``unwind()`` resumes suspended threads, and while a dead process's thread is
        /// unwound inertly: every scheduling point and blocking call returns at once (fail fast).
        var isUnwinding = false
        /// Set while ``unwind()`` resumes the run's suspended threads at its end (only the driver
        /// resumes them then): a thread that keeps waiting is given up
        /// (``noteUnwindingWait(in:)``).
        var isFinalUnwind = false
        /// Threads given up at the run's end (``noteUnwindingWait(in:)``).
        var givenUpCount = 0
        /// The queues of dead processes (indexes), the threads of theirs still to be unwound
        /// inertly, in the order they were filed (``unwindLater(ofQueues:)``), and the one being
        /// unwound.
        var deadQueues: [Int] = []
        var deadThreads: [Int] = []
        /// The id of the dead thread being unwound (-1: none; an Int, as every job's end checks
        /// it), and what to put back when its job ends.
        var inertThread = -1
        var inertMark: Scheduler.InertCallsMark?

        /// The last run call (``runLast(until:maxSteps:atStop:)``): the driver runs the loop
        /// itself, and this is called by whichever thread holds the baton when the run stops.
        var atStop: ((SchedulerStop) -> Void)?
        /// The last run call has stopped (``atStop`` was called).
        var hasStopped = false
        /// The driver of the last run call is parked at loop level, with no job of its own in
        /// progress: the next loop or the stop may be handed to it.
        var driverIsIdle = false

        /// The strategy's state and statistics, asked at points and decisions (``ThreadPolicy``).
        var policy: ThreadPolicy
        /// The point clock's base (``pointClock(in:)``): points counted when the countdown to the
        /// next slow path (``Scheduler/pointsUntilPreemption``) was last set, and what it was set to.
        var countedPoints = 0
        var countdownSetTo = 0
        /// Threads made runnable after blocking or sleeping so far (a policy may watch it).
        var wakeCount = 0
        /// By thread id: what the run had done at the thread's last poll point, and how long its
        /// next wait is (``pollPoint(in:)``); only threads that polled.
        var polls: [Int: PollWatch] = [:]

        /// The OS thread running the loop, which starts jobs inline (a job is bound to it only if
        /// it suspends: ``SimulatedThread/worker``).
        /// Unretained, like a thread's ``SimulatedThread/worker``: the pool keeps its workers,
        /// and the controller its driver, for longer than any run call.
        var loopWorker: Unretained<PoolWorker>?
        /// By queue index: called when a thread of the queue blocks or sleeps
        /// (``Scheduler/onThreadBlocks(on:_:)``); queues past the end have none.
        var blockHooks: [(() -> Void)?] = []
        /// By queue index: whether preempted threads of the queue are never kept off the CPU
        /// (``Scheduler/disablePreemptionDelays(on:)``); queues past the end have delays.
        var undelayedQueues: [Bool] = []

        /// Statistics: preemptions taken (points that let the scheduler choose again) and baton
        /// handoffs between OS threads.
        var preemptionCount = 0
        var handoffCount = 0
        /// Sleeps that took the fast path (``sleepsInPlace(until:queue:in:)``), and whether it may
        /// be taken (tests turn it off to compare it with the long way).
        var sleepsInPlaceCount = 0
        /// Of those, preemption delays (a preempted thread kept off the CPU with nothing else to
        /// run meanwhile).
        var delaysInPlaceCount = 0
        var allowsSleepInPlace = true
        /// Jobs started on the fast path while threads were suspended, each blocked or on a frozen
        /// queue (``takeInlineJob(in:)``), and whether it may be taken then (tests turn it off to
        /// compare it with the long way).
        var fastPathBesideSuspendedCount = 0
        var allowsFastPathBesideSuspended = true
        /// The threads blocked in a `sync` until a job runs their block, in the order they
        /// blocked (rarely more than one or two).
        var syncWaiters: [SyncWaiter] = []
        /// By queue index: the id of the thread running a `sync` block on its own stack while
        /// holding that serial queue (``ThreadController/runSyncOnCaller(_:holding:caller:in:)``);
        /// queues past the end have none.
        var syncHolders: [Int?] = []
    }

    @exclusivity(unchecked) var state: State


    // Read-only views of `state` for the engine's other types.

    /// The id of the running thread (nil at loop level).
    var currentID: Int? { state.current }
    /// The running thread's label (nil at loop level).
    var currentLabel: String? { state.current.map { state.threads[$0].label } }
    /// The index of the running thread's queue (nil at loop level).
    var currentQueueIndex: Int? { state.current.map { state.threads[$0].queue } }
    var isUnwinding: Bool { state.isUnwinding }
    var isFinalUnwind: Bool { state.isFinalUnwind }
    var deadlock: DeadlockReport? { state.deadlock }
    var suspendedCount: Int { state.suspendedCount }
    var preemptionCount: Int { state.preemptionCount }
    var handoffCount: Int { state.handoffCount }

    deinit {
        // The scheduler is gone with no thread suspended (its deinit checks): the pool is free.
        if pool.lentTo == ObjectIdentifier(self) { pool.lentTo = nil }
    }

    init(scheduler: Scheduler, configuration: ConcurrencyConfiguration, pool: SimulatedThreadPool) {
        self.scheduler = scheduler
        clock = scheduler.clock
        choices = scheduler.choices
        self.configuration = configuration
        let policy = ThreadPolicy(configuration: configuration)
        state = State(policy: policy)
        state.countdownSetTo = policy.initialCountdown
        weighsEveryPoint = policy.weighsEveryPoint
        self.pool = pool
        poolCall = Unretained(pool)
        driverWorker = pool.makeDriverWorker()
        delay = PreemptionDelay(configuration: configuration)
    }

    /// Whether the policy looks at every point and weighs every candidate's thread (PCT): then
    /// no inline fast path (``ThreadSchedulingPolicy/weighsEveryPoint``). Held here, as a
    /// constant, for the fast path's check.
    let weighsEveryPoint: Bool

    /// The real mutexes the run's threads hold (``PlainLocks``).
    let plainLocks = PlainLocks()

    /// The countdown a scheduler starts with (the policy's).
    var initialCountdown: Int { state.policy.initialCountdown }

    /// What has happened so far, for the policy.
    @inline(__always)
    func progress(in scheduler: Scheduler) -> RunProgress {
        RunProgress(
            jobNumber: scheduler.core.jobs.nextNumber, wakeCount: state.wakeCount,
            candidateEpoch: scheduler.core.candidateEpoch)
    }

    // MARK: The pool

    /// Takes the pool for this scheduler at its first run, or a pool of its own when the given
    /// one serves another live scheduler (two devices at once on one OS thread, or one never
    /// torn down). Nothing of this run is on the old pool then: a scheduler holds the pool from
    /// its first run until its threads are unwound, so it had none suspended. A run with Swift
    /// tasks takes the pool's OS threads instead of its fibers (a task's current-task slot is
    /// per OS thread: see ``SimulatedThreadPool/Carriers``).
    func lendPool() {
        if pool.lentTo == ObjectIdentifier(self) { return }
        precondition(state.suspendedCount == 0, "a run with suspended threads lost its pool")
        if pool.carriers == .fibers, scheduler.hasAsync { pool = pool.withOSThreads }
        if pool.lentTo != nil { pool = SimulatedThreadPool(stackSize: pool.stackSize, carriers: pool.carriers) }
        pool.lentTo = ObjectIdentifier(self)
        if driverWorker.carriesFiber != (pool.carriers == .fibers) { driverWorker = pool.makeDriverWorker() }
    }

    // MARK: The loop, on pool threads

    /// The loop on `worker`, which holds the baton at the top of its stack: carries out
    /// `first`, then decides and carries out again, until it must resume another worker or
    /// stop; then `worker` is idle again and returns the worker to hand the baton to.
    func runLoop(on worker: PoolWorker, first: Decision) -> PoolWorker {
        // This OS thread now runs the run's jobs: the async layer asks which run that is. The mark
        // stays while a job of this loop is suspended on this thread (it resumes here). A fiber
        // shares the driver's OS thread, which the driver marks for the whole call: marking it
        // here too would restore a mark out of order (a fiber's loop can end after the driver's
        // call returned, during teardown) and leave a stale run on the driver's thread.
        let marksThread = !worker.carriesFiber
        let mark = marksThread ? RunThreadMarker.enter(scheduler) : nil
        defer { if let mark { RunThreadMarker.leave(restoring: mark) } }
        state.loopWorker = Unretained(worker)
        // The scheduler unretained for the loop (its owner is running it): a strong local
        // reference cost a retain and a release per loop handed on.
        return Unretained(scheduler).call { runLoop(on: worker, first: first, in: $0) }
    }

    private func runLoop(on worker: PoolWorker, first: Decision, in scheduler: Scheduler) -> PoolWorker {
        var decision = first
        while true {
            switch decision {
            case .start(let thread):
                runJob(on: thread, worker: worker, in: scheduler)
                if state.isUnwinding {
                    poolCall.call { $0.idle.append(worker) }
                    return driverWorker
                }
                decision = decide(first: nil, in: scheduler)
            case .resume(let thread):
                markRunning(thread, in: scheduler)
                poolCall.call { $0.idle.append(worker) }
                state.handoffCount += 1
                return state.threads[thread].worker!.call { $0 }
            case .stop(let stop):
                handStop(stop)
                poolCall.call { $0.idle.append(worker) }
                state.handoffCount += 1
                return driverWorker
            }
        }
    }

    /// Records the stop before the baton goes back to the driver. In the last run call
    /// ``atStop`` runs first, here; a job the driver carries is then resumed to be unwound (its
    /// job must end before `run` can return on that stack).
    func handStop(_ stop: SchedulerStop) {
        state.result = stop
        guard state.atStop != nil else { return }
        finishLastRun(stop)
        let driver = driverWorker
        if let carried = state.threads.firstIndex(where: { $0.isSuspended && $0.worker?.call({ $0 === driver }) == true }) {
            state.isUnwinding = true
            markRunning(carried, in: scheduler)
        }
        state.driverIsIdle = false
    }

    /// Runs the pending job inline on `worker`, as the job of the thread with id `thread`;
    /// returns when it has finished (after any number of suspensions), holding the baton.
    func runJob(on thread: Int, worker: PoolWorker, in scheduler: Scheduler) {
        guard let work = state.pendingWork.take() else { preconditionFailure("start decision without a job") }
        runJob(work, on: thread, worker: worker, in: scheduler)
    }

    /// Runs `work` inline on `worker` as `thread`'s job (see ``runJob(on:worker:in:)``).
    func runJob(_ work: () -> Void, on thread: Int, worker: PoolWorker, in scheduler: Scheduler) {
        state.threads[thread].state = .running
        state.current = thread
        plainLocks.setCurrent(thread)
        scheduler.core.runningQueue = state.threads[thread].queue
        scheduler.noteJobStartForRaces(in: thread + 1)
        scheduler.reportJobStart()
        let job = scheduler.core.taken.job.number
        work()
        if state.inertThread == thread { finishInertRun(in: scheduler) }
        finishSync(job: job, in: scheduler)
        state.current = nil
        plainLocks.setCurrent(nil)
        scheduler.core.runningQueue = -1
        state.threads[thread].state = .idle
        if state.threads[thread].worker != nil {
            // The job was suspended (``suspendCurrent(in:)`` bound it to `worker` then): other jobs
            // ran meanwhile, so the core's running job and the loop's worker are restored.
            state.threads[thread].worker = nil
            scheduler.core.taken = state.threads[thread].taken
            state.loopWorker = Unretained(worker)
        }
        scheduler.noteJobEndForRaces(in: thread + 1)
        scheduler.core.finish()
        scheduler.releaseDropped()
    }
}
