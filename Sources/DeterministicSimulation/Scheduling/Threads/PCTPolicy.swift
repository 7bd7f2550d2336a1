/// Probabilistic concurrency testing (``ConcurrencyConfiguration/Strategy/pct``; Burckhardt et
/// al., ASPLOS 2010): each simulated thread gets a random priority when it first appears, the
/// highest-priority runnable thread always runs, re-checked at every scheduling point, and at
/// `depth - 1` change points the running thread drops below all others.
///
/// ```swift
/// var pct = PCTPolicy(configuration: .pct(depth: 3, stepBound: 2_000))
/// pct.threadAppeared(choices: choices)   // thread 0 draws its priority
/// ```
///
/// Contract: the change points are step indices drawn uniformly in `1...stepBound` at the run's
/// first point (a replayed 0 means none); a thread's priority is drawn when it appears, in
/// `0..<2^16`, and change points give negative ones. Ties go to the lower thread id. A point
/// asks for a decision only when something may have changed since the last one (a change point,
/// a new job, a woken thread), and skips even that when the decision is known
/// (``knownDecisionCount``).
struct PCTPolicy: ThreadSchedulingPolicy {
    static var weighsEveryPoint: Bool { true }

    private let depth: Int
    private let stepBound: Int
    /// Whether the change points are drawn (at the first point).
    private var started = false
    /// Points so far (the run's point clock under PCT: ``ChoiceSource/pointClock``), the sorted
    /// change points, and the next one's index.
    private(set) var step = 0
    private var changePoints: [Int] = []
    private var nextChangePoint = 0
    /// Priorities by thread id, and the lowest given at a change point so far.
    private var priorities: [Int64] = []
    private var lowestPriority: Int64 = 0
    /// What the last decision saw: a new job or a woken thread may outrank the running one.
    private var seen = RunProgress(jobNumber: 0, wakeCount: 0, candidateEpoch: .max)
    /// The best candidate weighed so far in the decision being made (index and thread).
    private var best = 0
    private var bestThread = -1

    /// Points with new jobs whose decision was known without being made (``point(running:
    /// progress:mayKnowDecision:choices:)``), and whether that may be done (tests turn it off to
    /// compare it with the long way).
    private(set) var knownDecisionCount = 0
    var allowsKnownDecision = true

    init(configuration: ConcurrencyConfiguration) {
        if case .pct(let depth, let stepBound) = configuration.strategy {
            self.depth = depth
            self.stepBound = stepBound
        } else {
            preconditionFailure("PCTPolicy made for \(configuration.strategy)")
        }
    }

    /// Every point asks: priorities are re-checked at each.
    var initialCountdown: Int { 0 }

    mutating func threadAppeared(choices: ChoiceSource) {
        priorities.append(Int64(choices.draw(below: 1 << 16)))
        choices.markScheduleDraw()
    }

    /// Counts the point, lowers the running thread's priority at a change point (and preempts
    /// it), and lets the highest-priority thread run when something may have changed (a new job,
    /// a woken thread).
    ///
    /// The decision after new jobs is known, with no suspension, when no thread woke and no new
    /// job can start now (``SchedulerCore/candidateEpoch`` has not moved: each is due later, or
    /// queued behind another on a serial queue, or on a busy or frozen queue): the threads and
    /// ready jobs a decision would weigh are those of the last decision, less the job this thread
    /// took then. This thread had the highest priority then, so it has now, and the long way
    /// would resume it. A main thread that queues a batch of jobs onto a busy serial queue
    /// (notes-import queues about 80 statements per import) made a full decision, and two thread
    /// switches' worth of bookkeeping, for each one.
    mutating func point(running: Int, progress: RunProgress, mayKnowDecision: Bool, choices: ChoiceSource)
        -> PointOutcome
    {
        if !started { start(choices) }
        step += 1
        var lowered = false
        while nextChangePoint < changePoints.count, changePoints[nextChangePoint] <= step {
            if changePoints[nextChangePoint] == step { lowered = true }
            nextChangePoint += 1
        }
        if lowered {
            lowestPriority -= 1
            priorities[running] = lowestPriority
            return .preempt(countdown: 0)
        }
        guard progress.jobNumber != seen.jobNumber || progress.wakeCount != seen.wakeCount else {
            return .wait(countdown: 0)
        }
        guard allowsKnownDecision, progress.wakeCount == seen.wakeCount,
            progress.candidateEpoch == seen.candidateEpoch, mayKnowDecision
        else { return .yield }
        seen.jobNumber = progress.jobNumber
        knownDecisionCount += 1
        return .keepRunning
    }

    /// Draws the `depth - 1` change points (0, from a replayed recording, means none).
    private mutating func start(_ choices: ChoiceSource) {
        started = true
        let bound = UInt64(stepBound)
        changePoints = (0..<max(0, depth - 1)).map { _ in
            let point = Int(choices.drawRecorded(replayBound: bound + 1) { 1 + $0.next(below: bound) })
            choices.markScheduleDraw()
            choices.markPointCountDraw()
            return point
        }.filter { $0 > 0 }.sorted()
    }

    @inline(__always)
    mutating func weigh(_ thread: Int, at index: Int) {
        if bestThread >= 0, !outranks(thread, bestThread) { return }
        best = index
        bestThread = thread
    }

    /// The highest-priority candidate weighed; draws nothing.
    @inline(__always)
    mutating func chooseRunner(count: Int, progress: RunProgress, choices: ChoiceSource) -> Int {
        observe(progress)
        let chosen = best
        best = 0
        bestThread = -1
        return chosen
    }

    @inline(__always)
    mutating func observe(_ progress: RunProgress) {
        seen = progress
    }

    /// Higher priority first, then lower id.
    private func outranks(_ a: Int, _ b: Int) -> Bool {
        let (priorityA, priorityB) = (priorities[a], priorities[b])
        return priorityA != priorityB ? priorityA > priorityB : a < b
    }
}
