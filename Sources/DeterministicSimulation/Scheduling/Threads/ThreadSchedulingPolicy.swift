/// How controlled concurrency chooses: when a running simulated thread is preempted, and which
/// runner goes next. One type per strategy of ``ConcurrencyConfiguration/Strategy``
/// (``RandomWalkPolicy``, ``PCTPolicy``), each with its own state and statistics, as Shuttle
/// keeps each scheduler behind a small trait; ``ThreadController`` keeps the loop (threads,
/// scheduling points, deadlocks, `sync` on the caller) and asks its policy.
///
/// ```swift
/// var policy = RandomWalkPolicy(configuration: .randomWalk(preemptionRate: 0.05))
/// let outcome = policy.point(running: me, progress: progress, mayKnowDecision: true, choices: choices)
/// if case .preempt(let countdown) = outcome { print("preempt, then \(countdown) points go by") }
/// ```
///
/// Contract: a policy is a value owned by one controller's state and touched only by the baton
/// holder. It never calls back into the controller: it answers, and the controller acts, so no
/// access to the controller's state ever overlaps one to the policy. Every value it draws is
/// recorded in the run's ``ChoiceSource`` with 0 as the simplest outcome ("no preemption", "no
/// change point"), so seeds, recordings and shrunk recordings replay.
protocol ThreadSchedulingPolicy {
    /// The policy of `configuration`, before the run's first point.
    init(configuration: ConcurrencyConfiguration)

    /// Whether the policy looks at every scheduling point and weighs every candidate's thread
    /// (PCT re-checks priorities at each): then the controller takes no fast path that skips a
    /// decision, the core counts candidate changes, and each decision shows the policy every
    /// candidate's thread (``weigh(_:at:)``) before ``chooseRunner(count:progress:choices:)``.
    static var weighsEveryPoint: Bool { get }

    /// The countdown of scheduling points a scheduler starts with (0: the first point asks).
    var initialCountdown: Int { get }

    /// A new simulated thread took the next id (PCT draws its priority).
    mutating func threadAppeared(choices: ChoiceSource)

    /// At a scheduling point inside a job whose countdown ran out: what the controller does.
    /// `mayKnowDecision` says whether the controller could count a decision without making it
    /// (it has steps left and no deadlock).
    mutating func point(running: Int, progress: RunProgress, mayKnowDecision: Bool, choices: ChoiceSource)
        -> PointOutcome

    /// Shows a policy that ``weighsEveryPoint`` the thread of candidate `index`, in index order.
    mutating func weigh(_ thread: Int, at index: Int)

    /// The index of the next runner among `count` candidates: the suspended thread first (0, "no
    /// preemption") if runnable, the other runnable threads by id, then the ready jobs.
    mutating func chooseRunner(count: Int, progress: RunProgress, choices: ChoiceSource) -> Int

    /// The controller resumed the running thread without a decision (a sleep's fast path):
    /// what it had to see is seen.
    mutating func observe(_ progress: RunProgress)
}

/// What a policy does at a scheduling point whose countdown ran out.
enum PointOutcome {
    /// No preemption here; the next `countdown` points take the fast path.
    case wait(countdown: Int)
    /// Set the countdown, then preempt the running thread (it may be kept off the CPU for a
    /// drawn delay).
    case preempt(countdown: Int)
    /// Something may outrank the running thread: it stays runnable and the controller decides.
    case yield
    /// As ``yield``, but the decision is known (the running thread goes on): the controller
    /// counts the step and returns.
    case keepRunning
}

/// What has happened in a run so far, as far as a policy's decisions are concerned: jobs made,
/// threads woken, and changes to the core's candidate jobs.
struct RunProgress {
    /// The number the next job will get (``SchedulerCore/jobs``).
    var jobNumber: UInt64
    /// Threads made runnable after blocking or sleeping so far.
    var wakeCount: Int
    /// The core's ``SchedulerCore/candidateEpoch``.
    var candidateEpoch: UInt64
}

/// The controller's policy: one case per strategy, each forwarding to its type. The switch is
/// made once per call and inlined, and each case's value is moved out and back (`consume`), so
/// a policy's arrays are mutated in place, with no copy and no reference count operation (an
/// existential would dispatch through a witness table and box a PCT state for every point).
enum ThreadPolicy {
    case randomWalk(RandomWalkPolicy)
    case pct(PCTPolicy)

    init(configuration: ConcurrencyConfiguration) {
        switch configuration.strategy {
        case .randomWalk: self = .randomWalk(RandomWalkPolicy(configuration: configuration))
        case .pct: self = .pct(PCTPolicy(configuration: configuration))
        }
    }

    var weighsEveryPoint: Bool {
        switch self {
        case .randomWalk: RandomWalkPolicy.weighsEveryPoint
        case .pct: PCTPolicy.weighsEveryPoint
        }
    }

    var initialCountdown: Int {
        switch self {
        case .randomWalk(let walk): walk.initialCountdown
        case .pct(let pct): pct.initialCountdown
        }
    }

    @inline(__always)
    mutating func threadAppeared(choices: ChoiceSource) {
        switch consume self {
        case .randomWalk(let walk): walk.threadAppeared(choices: choices); self = .randomWalk(walk)
        case .pct(var pct): pct.threadAppeared(choices: choices); self = .pct(pct)
        }
    }

    @inline(__always)
    mutating func point(running: Int, progress: RunProgress, mayKnowDecision: Bool, choices: ChoiceSource)
        -> PointOutcome
    {
        switch consume self {
        case .randomWalk(var walk):
            let outcome = walk.point(running: running, progress: progress, mayKnowDecision: mayKnowDecision, choices: choices)
            self = .randomWalk(walk)
            return outcome
        case .pct(var pct):
            let outcome = pct.point(running: running, progress: progress, mayKnowDecision: mayKnowDecision, choices: choices)
            self = .pct(pct)
            return outcome
        }
    }

    @inline(__always)
    mutating func weigh(_ thread: Int, at index: Int) {
        switch consume self {
        case .randomWalk(let walk): walk.weigh(thread, at: index); self = .randomWalk(walk)
        case .pct(var pct): pct.weigh(thread, at: index); self = .pct(pct)
        }
    }

    @inline(__always)
    mutating func chooseRunner(count: Int, progress: RunProgress, choices: ChoiceSource) -> Int {
        switch consume self {
        case .randomWalk(let walk):
            let index = walk.chooseRunner(count: count, progress: progress, choices: choices)
            self = .randomWalk(walk)
            return index
        case .pct(var pct):
            let index = pct.chooseRunner(count: count, progress: progress, choices: choices)
            self = .pct(pct)
            return index
        }
    }

    @inline(__always)
    mutating func observe(_ progress: RunProgress) {
        switch consume self {
        case .randomWalk(let walk): walk.observe(progress); self = .randomWalk(walk)
        case .pct(var pct): pct.observe(progress); self = .pct(pct)
        }
    }

    /// PCT's state and statistics, for tests (nil under random walk); setting it under random
    /// walk does nothing.
    var pct: PCTPolicy? {
        get {
            if case .pct(let pct) = self { return pct }
            return nil
        }
        set {
            guard case .pct = self, let newValue else { return }
            self = .pct(newValue)
        }
    }
}
