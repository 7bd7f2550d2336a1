/// The shrinker's working state: the current best sequence and its actions, the budgets
/// (attempts, wall time, cache bytes), a cache of replayed candidates and per-pass statistics.
struct ShrinkState<Target: CampaignTarget> {
    let target: Target
    let maxAttempts: Int
    /// The most bytes ``tried`` may hold (``ShrinkOptions/maxCacheBytes``).
    let maxCacheBytes: Int
    let isCancelled: () -> Bool
    /// Whether the shrink's wall-clock budget (``ShrinkOptions/maxSeconds``) is spent.
    let isOverTime: () -> Bool
    let keeps: (RunVerdict) -> Bool

    /// The simplest sequence found so far (a normalized recording: it replays exactly).
    private(set) var current = ChoiceSequence()
    /// The actions the current sequence's run marked (``ChoiceSource/actions``), in order.
    private(set) var currentActions: [ChoiceAction] = []
    /// The idle steps the current sequence's run marked (``ChoiceSource/idleSteps``), in order.
    private(set) var currentIdleSteps: [Range<Int>] = []
    /// The spans the current sequence's run marked (``ChoiceSource/spans``), in marking order.
    private(set) var currentSpans: [ChoiceSpan] = []
    /// The scheduling decisions the current sequence's run marked (``ChoiceSource/scheduleDraws``).
    private(set) var currentScheduleDraws: [Int] = []
    /// The draws the current sequence's run marked as counts of scheduling points
    /// (``ChoiceSource/pointCountDraws``: PCT's change points, random walk's gaps).
    private(set) var currentPointCountDraws: [PointCountDraw] = []
    private(set) var currentEventCount = 0
    /// What the current sequence's run cost; candidates may cost at most a few times more.
    private var currentCost = 0
    private(set) var attempts = 0
    var stop: ShrinkStop?
    var stats: [ShrinkPassStats] = ShrinkPass.allCases.map { ShrinkPassStats(name: $0.name, attempts: 0, accepted: 0) }
    private var activePass = ShrinkPass.endEarlier
    /// Whether a deletion of whole actions also tries the action after it re-aimed
    /// (``deleteKeepingNext()``).
    var reaimsDeletions = false
    /// Whether a deletion of actions that loses the failure is tried again with the preemptions
    /// drawn before it moved back (``deleteRetimed()``).
    ///
    /// Where: `startLater` and `skipAllBut` (which delete long runs at once, the deletions a rare
    /// interleaving found late in a long run needs first), `deleteActions`' pairs and longer
    /// runs once a retimed deletion was adopted in this shrink (``adoptedRetimed``: the failure
    /// needs its preemptions where they fell), and ``deleteRetimed()`` (everything, once every
    /// other pass is stuck). Retiming every deletion from the start doubled the replays of long
    /// threaded shrinks and led two planted bugs away from their minimum (feed-refresh's watchdog
    /// kill: 6 actions instead of 3), as did retiming after 32 or 128 lost deletions in a row.
    var retimesDeletions = false
    /// Whether a retimed deletion was adopted in this shrink.
    var adoptedRetimed = false
    /// The candidates judged so far (as given, not normalized) and the fronts finished replays
    /// read (``TriedCandidates``): an exact repeat is skipped, a candidate that starts with a
    /// read front is judged without a replay. Grows with the candidates, so it is bounded by
    /// ``maxCacheBytes``.
    private var tried = TriedCandidates()
    /// Whether read fronts judge candidates (always, except in the tests that compare a shrink
    /// with them and without them).
    var judgesByReadFront = true
    /// Replays run (``attempts`` less the candidates judged by a read front): what
    /// ``maxAttempts`` bounds.
    private(set) var replays = 0
    /// The bytes ``tried`` holds beyond its root (``TriedCandidates/bytes``): at most ``maxCacheBytes``.
    private(set) var cacheBytes = 0

    init(target: Target, options: ShrinkOptions, isCancelled: @escaping () -> Bool,
         isOverTime: @escaping () -> Bool, keeps: @escaping (RunVerdict) -> Bool) {
        self.target = target
        maxAttempts = options.maxAttempts
        maxCacheBytes = options.maxCacheBytes
        self.isCancelled = isCancelled
        self.isOverTime = isOverTime
        self.keeps = keeps
    }

    /// Replays the input once to normalize it and learn its event count (not counted as an attempt).
    ///
    /// The passes compute positions from the run's marks (actions, idle steps, spans), which are
    /// positions in what the run drew, so the current sequence is that recording: the input
    /// itself for any recorded run, else what an edited or truncated input replays as (a value
    /// past its end reads 0, an unread one drops).
    private mutating func start(_ choices: ChoiceSequence) {
        let source = ChoiceSource(replaying: choices)
        let verdict = target.run(choices: source, keepTrace: false)
        current = source.recorded
        currentActions = source.actions
        currentIdleSteps = source.idleSteps
        currentSpans = source.spans
        currentScheduleDraws = source.scheduleDraws
        currentPointCountDraws = source.pointCountDraws
        currentEventCount = verdict.eventCount
        currentCost = verdict.cost
        if maxAttempts == 0 { stop = .attemptLimit }
    }

    /// Runs the action passes (``ShrinkPass/firstPhase``) until they find nothing more (actions
    /// first: what a reader counts, and the cheapest attempts, since a run with fewer actions is
    /// shorter), then every pass in order (``ShrinkPass/runOrder``), cyclically, until every pass
    /// in a row finds nothing simpler (a fixpoint) or a limit is hit. After any pass that found
    /// something, the cheap action passes (``ShrinkPass/actionPasses``) run again before the next
    /// pass: a zeroed or lowered value often makes an action deletable.
    mutating func shrink(_ choices: ChoiceSequence) -> ShrinkResult {
        start(choices)
        runToFixpoint(ShrinkPass.firstPhase)
        runToFixpoint(ShrinkPass.runOrder)
        if stop == nil { stop = .fixpoint }
        return ShrinkResult(choices: current, eventCount: currentEventCount, actionCount: currentActions.count,
                            attempts: attempts, stop: stop ?? .fixpoint, passes: stats, replays: replays)
    }

    /// Runs `passes` cyclically until every one in a row finds nothing or a limit is hit; those
    /// that wait until the others are stuck (``ShrinkPass/waitsUntilStuck``) then run, and if
    /// one finds something, the cheap action passes and the cycle start again.
    private mutating func runToFixpoint(_ passes: [ShrinkPass]) {
        let eager = passes.filter { !$0.waitsUntilStuck }
        let waiting = passes.filter(\.waitsUntilStuck)
        while stop == nil {
            runCyclically(eager)
            guard let found = waiting.first(where: { stop == nil && runFinds($0) }) else { return }
            _ = found
            for pass in ShrinkPass.actionPasses where stop == nil { run(pass) }
        }
    }

    /// Runs `passes` cyclically until every one in a row finds nothing or a limit is hit.
    private mutating func runCyclically(_ passes: [ShrinkPass]) {
        var next = 0
        var quietPasses = 0
        while stop == nil, quietPasses < passes.count {
            if runFinds(passes[next]) {
                quietPasses = 0
                for pass in ShrinkPass.actionPasses where stop == nil { run(pass) }
            } else {
                quietPasses += 1
            }
            next = (next + 1) % passes.count
        }
    }

    /// Runs `pass`; whether it adopted something simpler.
    private mutating func runFinds(_ pass: ShrinkPass) -> Bool {
        let before = current
        run(pass)
        return current != before
    }

    mutating func run(_ pass: ShrinkPass) {
        activePass = pass
        switch pass {
        case .endEarlier: endEarlier()
        case .skipAllBut: skipAllBut()
        case .startLater: startLater()
        case .replaceLastAction: replaceLastAction()
        case .deleteActions: deleteActions()
        case .zeroActions: zeroActions()
        case .deleteChunks: deleteChunks()
        case .zeroChunks: zeroChunks()
        case .minimizeValues: minimizeValues()
        case .sortAdjacent: sortAdjacent()
        case .deleteRuns: deleteRuns()
        case .deleteCycles: deleteCycles()
        case .deleteKeepingNext: deleteKeepingNext()
        case .deleteRetimed: deleteRetimed()
        case .deleteReaiming: deleteReaiming()
        case .deleteShifted: deleteShifted()
        case .undoSwarm: undoSwarm()
        case .zeroSwarm: zeroSwarm()
        case .canonicalSchedule: canonicalSchedule()
        case .delaySwitches: delaySwitches()
        }
    }

    /// A candidate may cost twice the current run (plus a little slack for tiny runs): a simpler
    /// run is rarely longer, and edits that make a run explode (say, every delay at its minimum
    /// after the sequence runs out) are cut off instead of run to the end.
    private var costBudget: Int { min(currentCost, Int.max / 4) * 2 + 100 }

    /// Whether a run of `actions` actions that drew `drawn` is simpler than the current one
    /// (``Shrinker/isSimpler(_:actions:than:actions:)``).
    private func isSimpler(_ drawn: ChoiceSequence, actions: Int) -> Bool {
        Shrinker.isSimpler(drawn, actions: actions, than: current, actions: currentActions.count)
    }

    /// Replays `values` and adopts the drawn sequence if it still fails and is simpler.
    /// Returns whether it was adopted; sets ``stop`` when the budget runs out.
    @discardableResult
    mutating func attempt(_ values: [UInt64], requireSimplerCandidate: Bool = true) -> Bool {
        guard stop == nil else { return false }
        let candidate = ChoiceSequence(values)
        // Passes propose edits simpler than `current` (skips excepted: their runs have fewer
        // actions); any other candidate is a no-op, and so is an exact repeat.
        guard !requireSimplerCandidate || candidate.isSimpler(than: current) else { return false }
        let knowledge = tried.lookUp(values)
        guard knowledge != .judged else { return false }
        // A candidate that starts with what a finished replay read replays that run, which was
        // judged: either rejected then (for good: `keeps` is fixed and `current` only gets
        // simpler), or adopted, so that `current` is now it or simpler. Either way it is rejected
        // now, exactly as its replay would be, and without one: like an exact repeat it costs
        // nothing of the budget, so a shrink takes the same path as when every candidate was
        // replayed, and one that used its whole budget goes further.
        if judgesByReadFront, knowledge == .readByReplay {
            attempts += 1
            stats[activePass.rawValue].attempts += 1
            remember(values, readFront: nil)
            return false
        }
        if replays >= maxAttempts {
            stop = .attemptLimit
            return false
        }
        // Polled before every replay, so a Ctrl-C or the time budget stops the shrink within one
        // replay. Neither decides which candidate comes next, only when trying ends.
        if isCancelled() {
            stop = .cancelled
            return false
        }
        if isOverTime() {
            stop = .timeLimit
            return false
        }
        attempts += 1
        stats[activePass.rawValue].attempts += 1
        replays += 1
        let source = ChoiceSource(replaying: candidate)
        let verdict = target.run(choices: source, keepTrace: false, costBudget: costBudget)
        let drawn = source.recorded
        let accepted = !verdict.overBudget && keeps(verdict) && isSimpler(drawn, actions: source.actions.count)
        // A run cut off by the cost budget did not finish: a later, larger budget could run it on.
        remember(values, readFront: verdict.overBudget ? nil : source.replayedPrefixLength)
        if accepted {
            current = drawn
            currentActions = source.actions
            currentIdleSteps = source.idleSteps
            currentSpans = source.spans
            currentScheduleDraws = source.scheduleDraws
            currentPointCountDraws = source.pointCountDraws
            currentEventCount = verdict.eventCount
            currentCost = verdict.cost
            stats[activePass.rawValue].accepted += 1
        }
        return accepted
    }

    /// Records what a candidate taught (it was judged; its replay read the front of `readFront`
    /// values) while the cache has room, from the path its lookup walked. Once it is full, later
    /// candidates are not recorded (a repeat is replayed again and counts as an attempt), so the
    /// cache never grows past ``maxCacheBytes``; what is recorded depends only on the candidates,
    /// so a shrink stays deterministic.
    private mutating func remember(_ values: [UInt64], readFront: Int?) {
        cacheBytes += tried.record(values, readFront: readFront, maxAddedBytes: maxCacheBytes - cacheBytes)
    }
}
