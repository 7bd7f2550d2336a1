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
struct RunProgress: Equatable {
    /// The number the next job will get (``SchedulerCore/jobs``).
    var jobNumber: UInt64
    /// Threads made runnable after blocking or sleeping so far.
    var wakeCount: Int
    /// The core's ``SchedulerCore/candidateEpoch``.
    var candidateEpoch: UInt64
}

/// The controller's policy: the one of its strategy, called directly. Each call tests once which
/// policy the run has and mutates that one in place, where it is stored: a policy held in an enum
/// case was copied out and back at every call (measured: 5% more instructions per event on a
/// threaded workload, mostly in copying and releasing a PCT policy's arrays), and an existential
/// would dispatch through a witness table and box a PCT policy.
struct ThreadPolicy {
    /// Exactly one of the two is set, for the whole run.
    private var randomWalk: RandomWalkPolicy?
    private(set) var pct: PCTPolicy?

    init(configuration: ConcurrencyConfiguration) {
        switch configuration.strategy {
        case .randomWalk: randomWalk = RandomWalkPolicy(configuration: configuration)
        case .pct: pct = PCTPolicy(configuration: configuration)
        }
    }

    var weighsEveryPoint: Bool {
        pct != nil ? PCTPolicy.weighsEveryPoint : RandomWalkPolicy.weighsEveryPoint
    }

    var initialCountdown: Int {
        if let pct { return pct.initialCountdown }
        return randomWalk!.initialCountdown
    }

    @inline(__always)
    mutating func threadAppeared(choices: ChoiceSource) {
        if pct != nil { pct!.threadAppeared(choices: choices) } else { randomWalk!.threadAppeared(choices: choices) }
    }

    @inline(__always)
    mutating func point(running: Int, progress: RunProgress, mayKnowDecision: Bool, choices: ChoiceSource)
        -> PointOutcome
    {
        if pct != nil {
            return pct!.point(running: running, progress: progress, mayKnowDecision: mayKnowDecision, choices: choices)
        }
        return randomWalk!.point(running: running, progress: progress, mayKnowDecision: mayKnowDecision, choices: choices)
    }

    @inline(__always)
    mutating func weigh(_ thread: Int, at index: Int) {
        if pct != nil { pct!.weigh(thread, at: index) } else { randomWalk!.weigh(thread, at: index) }
    }

    @inline(__always)
    mutating func chooseRunner(count: Int, progress: RunProgress, choices: ChoiceSource) -> Int {
        if pct != nil { return pct!.chooseRunner(count: count, progress: progress, choices: choices) }
        return randomWalk!.chooseRunner(count: count, progress: progress, choices: choices)
    }

    @inline(__always)
    mutating func observe(_ progress: RunProgress) {
        if pct != nil { pct!.observe(progress) } else { randomWalk!.observe(progress) }
    }

    /// Whether PCT may know a decision without making it (tests turn it off to compare it with
    /// the long way); does nothing under random walk.
    mutating func allowKnownDecisions(_ allowed: Bool) {
        if pct != nil { pct!.allowsKnownDecision = allowed }
    }
}
