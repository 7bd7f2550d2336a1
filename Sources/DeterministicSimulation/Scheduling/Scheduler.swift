package import SimulationRuntime

/// Runs the jobs of simulated queues one at a time, in virtual time, letting a ``ChoiceSource``
/// decide every interleaving.
///
/// One run owns one scheduler, on one thread: it is not `Sendable` and not thread-safe. Jobs are
/// closures that run synchronously to completion; a job may schedule, cancel, freeze and thaw.
///
/// ```swift
/// let scheduler = Scheduler(choices: ChoiceSource(seed: runSeed.derive("scheduler")))
/// let uploads = scheduler.makeQueue(label: "uploads", kind: .serial)
/// scheduler.async(on: scheduler.mainQueue) { print("launched at", scheduler.now) }
/// scheduler.asyncAfter(.seconds(2), on: uploads) { print("retry") }
/// let stop = scheduler.run(until: .seconds(60))   // .idle: both jobs ran, the clock is at 60 s
/// ```
///
/// Semantics (each is tested):
/// - A job is *ready* when its due time is not after ``now`` and its queue is not frozen. A job
///   scheduled for a time in the past is due now. Jobs are ordered by (due time, ``JobID``).
/// - A serial queue offers one candidate: its first ready job in that order (FIFO, including
///   jobs from `asyncAfter`, ordered by due time, then by scheduling order). A concurrent queue of
///   width `w` offers its first `w` ready jobs.
/// - Each step: if no job is ready, the clock first advances to the earliest due time of a job on
///   an unfrozen queue (never past the step's limit). Candidates are then listed by queue
///   creation order, then (due time, job id). With more than one candidate the step draws
///   `choices.draw(below: count)` and runs that candidate (0, the first, is the simplest
///   interleaving); with exactly one it draws nothing.
/// - A repeating timer fires first one interval after it is scheduled; after each fire its next
///   due time is the fire's start time plus the interval, so fires missed while its queue was
///   frozen coalesce into one. It keeps its ``JobID``; cancelling that id stops all future fires.
/// - A cancelled job never runs. Cancelling is O(1): the job is marked, and skipped and released
///   when it reaches the front of its queue.
///
/// Internal consistency is checked after every step in builds with the compilation condition
/// `DETERMINISTIC_SIMULATION_CHECKS` (`swift test -Xswiftc -DDETERMINISTIC_SIMULATION_CHECKS`).
///
/// Complexity: scheduling and cancelling are O(log n) and O(1); a step is O(q + w² + log n) for
/// `q` queues, concurrent width `w` and `n` pending jobs per queue. Memory: one bit per job ever
/// scheduled, plus the pending jobs.
public final class Scheduler {
    /// The clock the scheduler moves; shared with whatever else reads simulated time.
    public let clock: VirtualClock
    /// Where interleaving decisions come from.
    public let choices: ChoiceSource
    /// The serial queue labelled `"main"`, created first (id 0).
    public let mainQueue: QueueID

    /// Called just before each job runs, with the job, its queue and the time; for traces.
    ///
    /// ```swift
    /// scheduler.onJobStart = { info in log.append("\(info.time) \(info.queue.rawValue)") }
    /// ```
    @exclusivity(unchecked) package var onJobStart: ((JobInfo) -> Void)?

    /// The number of jobs run so far, over the scheduler's life.
    public var stepsRun: Int { core.stepsRun }

    /// The number of jobs not cancelled and not yet run, frozen queues included. A repeating timer
    /// counts as one until it is cancelled.
    package var pendingJobCount: Int { core.pendingJobCount }

    /// The mutable state, accessed once per operation (see ``SchedulerCore``). Unchecked
    /// exclusivity: a scheduler is confined to one thread, no job runs and no closure is released
    /// inside an access to it (so nothing can reach it again during one), and the dynamic check
    /// cost more than many of the operations it guarded.
    @exclusivity(unchecked) var core = SchedulerCore()
    /// An empty buffer with capacity, swapped in for the core's ``SchedulerCore/dropped`` when
    /// its closures are released, so dropping cancelled jobs does not allocate a new list each
    /// time. Unchecked exclusivity for the same reasons as ``core``; only ``releaseDropped()``
    /// touches it, and never across a release.
    @exclusivity(unchecked) var spareDropped: [DroppedWork] = []
    /// Scheduling points left before the slow path of ``schedulingPoint()`` (`.max`: never,
    /// without controlled concurrency or with no preemption rate). Unchecked exclusivity like
    /// ``core``: it is the whole fast path of a point.
    @usableFromInline @exclusivity(unchecked) var pointsUntilPreemption = Int.max
    /// The simulated threads, once ``enableControlledConcurrency(_:pool:)`` was
    /// called (set once, never cleared).
    var threads: ThreadController? {
        didSet { threadsCall = threads.map { Unretained($0) } }
    }
    /// The same controller, called without a retain and release by the paths every scheduling
    /// point, sleep and lock takes (``threads`` keeps it alive for the scheduler's life).
    /// Unchecked exclusivity like ``core``: set once, read on every such call.
    @exclusivity(unchecked) var threadsCall: Unretained<ThreadController>?
    /// Swift concurrency support (executors, clock, escapes), once ``enableAsync(taskWidth:)``
    /// was called or an escape was seen.
    var asyncState: AsyncState?
    /// Happens-before and shared accesses, once ``enableRaceDetection(checkingPlainAccesses:)`` was called (set once,
    /// never cleared).
    var raceDetector: RaceDetector? {
        didSet { races = raceDetector.map { Unretained($0) } }
    }
    /// The same detector, called without a retain and release by its hooks (nil: off, and every
    /// hook is one check); ``raceDetector`` keeps it alive for the scheduler's life. Unchecked
    /// exclusivity like ``core``: only the baton holder touches it, and every enqueue and job
    /// reads it.
    @exclusivity(unchecked) var races: Unretained<RaceDetector>?
    /// What the shim's plain-access functions read for this run (nil: plain accesses are not
    /// checked); set with race detection, handed to every mark of the run's threads.
    var plainAccesses: PlainAccessTable?
    /// Whether this scheduler still exists, for the ``SchedulerReference``s to it.
    let lifetime = SchedulerLifetime()
    /// Whether the code running now runs inertly (``withInertCalls(_:)``): a dead process's code
    /// that the simulation cannot avoid running. Unchecked exclusivity like ``core``.
    @exclusivity(unchecked) var inertCode = false
    /// What app code slept where no simulated thread could wait (a run on one thread, the
    /// teardown's last jobs) and what the threads unwound at the run's end slept: the run's
    /// clocks read that much later there (``VirtualClocks``).
    var loopSleepMicroseconds: Int64 = 0
    /// Called with `true` when inert code starts to run and `false` when it stops (outermost
    /// calls only): a simulator stops and resumes recording there, rather than reading a flag
    /// at every event (read from another module, a stored property is checked for exclusivity
    /// at every read: 3% of a token run).
    public var onInertCode: ((Bool) -> Void)?
    /// Given each call to a real Dispatch queue that the run's code makes (`DispatchQueue.async`,
    /// `sync`, `asyncAfter`, a group's `notify` and `leave`), on the calling thread: returns
    /// whether it took the call (it runs the work on a simulated queue). A call not taken is an
    /// escape where the run judges them (``AsyncEscape``), and goes through to Dispatch
    /// elsewhere. A simulator whose processes have queues sets it.
    package var onRealDispatch: ((RealDispatchCall) -> Bool)?
    /// Asked, on the calling thread, for the object the run's code gets from
    /// `NotificationCenter.default` (``FoundationSingleton``): its process's own. Unset,
    /// Foundation's process-wide one answers. A simulator whose processes are apps sets it.
    package var onFoundationSingleton: ((FoundationSingleton) -> AnyObject?)?
    /// The queues of dead processes (``releaseDeadQueues(_:)``), whose actor turns are run
    /// inertly. Unchecked exclusivity like ``core``: only the baton holder touches it.
    @exclusivity(unchecked) var deadQueues: [QueueID] = []

    deinit {
        lifetime.isAlive = false
        ThreadMark.runEnded(self)  // the run's Dispatch sources; a later scheduler may reuse its address
        precondition(
            threads.map { $0.suspendedCount == 0 } ?? true,
            "Scheduler released with suspended simulated threads: call discardPendingJobs() first")
    }

    /// Creates a scheduler with only the main queue.
    ///
    /// ```swift
    /// let clock = VirtualClock()
    /// let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(7)), clock: clock)
    /// ```
    ///
    /// - Parameters:
    ///   - choices: the source of interleaving decisions (random or replaying).
    ///   - clock: the clock to move; a new one at time zero by default.
    public init(choices: ChoiceSource, clock: VirtualClock = VirtualClock()) {
        self.choices = choices
        self.clock = clock
        mainQueue = QueueID(rawValue: 0)
    }

    /// The current simulated time (the clock's `now`).
    public var now: VirtualTime { clock.now }

    /// Creates a queue; ids follow creation order.
    ///
    /// ```swift
    /// let workers = scheduler.makeQueue(label: "workers", kind: .concurrent(width: 3))
    /// ```
    ///
    /// - Parameters:
    ///   - label: a name for traces; need not be unique.
    ///   - kind: serial, or concurrent with a width (below 1 acts as 1).
    /// - Returns: the new queue's id.
    /// - Complexity: O(1) amortized.
    public func makeQueue(label: String, kind: QueueKind) -> QueueID {
        QueueID(rawValue: core.addQueue(SimulatedQueue(label: label, kind: kind)))
    }

    /// The label a queue was created with.
    ///
    /// ```swift
    /// scheduler.label(of: scheduler.mainQueue)   // "main"
    /// ```
    ///
    /// - Precondition: `queue` was made by this scheduler.
    public func label(of queue: QueueID) -> String {
        core.queues[core.index(of: queue)].label
    }

    /// The kind a queue was created with.
    ///
    /// ```swift
    /// scheduler.kind(of: workers)   // .concurrent(width: 3)
    /// ```
    ///
    /// - Precondition: `queue` was made by this scheduler.
    public func kind(of queue: QueueID) -> QueueKind {
        core.queues[core.index(of: queue)].kind
    }

    /// The number of queues, the main queue included.
    package var queueCount: Int { core.queues.count }

    /// Stops a queue from running anything (a suspended app); its jobs wait, and timers that
    /// fall due meanwhile fire once after ``thaw(_:)``.
    ///
    /// ```swift
    /// scheduler.freeze(scheduler.mainQueue)   // the app is suspended
    /// ```
    ///
    /// - Precondition: `queue` was made by this scheduler. Freezing a frozen queue does nothing.
    public func freeze(_ queue: QueueID) {
        setFrozen(true, queue: queue)
    }

    /// Lets a frozen queue run again; its waiting jobs become candidates as usual.
    ///
    /// ```swift
    /// scheduler.thaw(scheduler.mainQueue)   // the app resumed
    /// ```
    ///
    /// - Precondition: `queue` was made by this scheduler. Thawing a running queue does nothing.
    public func thaw(_ queue: QueueID) {
        setFrozen(false, queue: queue)
    }

    /// Freezes or thaws a queue in the core and tells the simulated threads, which keep those of
    /// frozen queues apart.
    private func setFrozen(_ frozen: Bool, queue: QueueID) {
        let index = core.index(of: queue)
        guard core.isFrozen(queue: index) != frozen else { return }
        core.setFrozen(frozen, queue: index)
        threadsCall?.call { $0.queueFreezingChanged(index, frozen: frozen) }
    }

    /// Whether a queue is frozen.
    ///
    /// ```swift
    /// if scheduler.isFrozen(scheduler.mainQueue) { /* suspended */ }
    /// ```
    ///
    /// - Precondition: `queue` was made by this scheduler.
    package func isFrozen(_ queue: QueueID) -> Bool {
        core.queues[core.index(of: queue)].isFrozen
    }
}
