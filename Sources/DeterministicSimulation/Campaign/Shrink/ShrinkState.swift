/// The shrinker's working state: the current best sequence, the attempt budget, a cache of
/// replayed candidates and per-pass statistics.
struct ShrinkState<Target: CampaignTarget> {
    let target: Target
    let maxAttempts: Int
    let isCancelled: () -> Bool
    let keeps: (RunVerdict) -> Bool

    /// The simplest sequence found so far (a normalized recording: it replays exactly).
    private(set) var current = ChoiceSequence()
    private(set) var currentEventCount = 0
    /// What the current sequence's run cost; candidates may cost at most a few times more.
    private var currentCost = 0
    private(set) var attempts = 0
    var stop: ShrinkStop?
    var stats: [ShrinkPassStats] = ShrinkPass.allCases.map { ShrinkPassStats(name: $0.name, attempts: 0, accepted: 0) }
    private var activePass = ShrinkPass.deleteChunks
    /// Candidates already replayed, by the candidate as given (not normalized).
    private var seen: [ChoiceSequence: Bool] = [:]

    init(target: Target, maxAttempts: Int, isCancelled: @escaping () -> Bool, keeps: @escaping (RunVerdict) -> Bool) {
        self.target = target
        self.maxAttempts = maxAttempts
        self.isCancelled = isCancelled
        self.keeps = keeps
    }

    /// Replays the input once to normalize it and learn its event count (not counted as an attempt).
    private mutating func start(_ choices: ChoiceSequence) {
        let source = ChoiceSource(replaying: choices)
        let verdict = target.run(choices: source, keepTrace: false)
        current = choices
        currentEventCount = verdict.eventCount
        currentCost = verdict.cost
        if keeps(verdict), source.recorded.isSimpler(than: choices) { current = source.recorded }
        if maxAttempts == 0 { stop = .attemptLimit }
    }

    /// Runs every pass, round after round, until a round changes nothing or a limit is hit.
    mutating func shrink(_ choices: ChoiceSequence) -> ShrinkResult {
        start(choices)
        while stop == nil {
            let before = current
            for pass in ShrinkPass.allCases where stop == nil { run(pass) }
            if stop == nil, current == before { stop = .fixpoint }
        }
        return ShrinkResult(choices: current, eventCount: currentEventCount, attempts: attempts,
                            stop: stop ?? .fixpoint, passes: stats)
    }

    mutating func run(_ pass: ShrinkPass) {
        activePass = pass
        switch pass {
        case .deleteChunks: deleteChunks()
        case .zeroChunks: zeroChunks()
        case .minimizeValues: minimizeValues()
        case .sortAdjacent: sortAdjacent()
        }
    }

    /// A candidate may cost twice the current run (plus a little slack for tiny runs): a simpler
    /// run is rarely longer, and edits that make a run explode (say, every delay at its minimum
    /// after the sequence runs out) are cut off instead of run to the end.
    private var costBudget: Int { min(currentCost, Int.max / 4) * 2 + 100 }

    /// Replays `values` and adopts the drawn sequence if it still fails and is simpler.
    /// Returns whether it was adopted; sets ``stop`` when the budget runs out.
    @discardableResult
    mutating func attempt(_ values: [UInt64]) -> Bool {
        guard stop == nil else { return false }
        let candidate = ChoiceSequence(values)
        // Every pass proposes edits that are simpler than `current`; anything else is a no-op.
        guard candidate.isSimpler(than: current), seen[candidate] == nil else { return false }
        if attempts >= maxAttempts {
            stop = .attemptLimit
            return false
        }
        if isCancelled() {
            stop = .cancelled
            return false
        }
        attempts += 1
        stats[activePass.rawValue].attempts += 1
        let source = ChoiceSource(replaying: candidate)
        let verdict = target.run(choices: source, keepTrace: false, costBudget: costBudget)
        let drawn = source.recorded
        let accepted = !verdict.overBudget && keeps(verdict) && drawn.isSimpler(than: current)
        seen[candidate] = accepted
        if accepted {
            current = drawn
            currentEventCount = verdict.eventCount
            currentCost = verdict.cost
            stats[activePass.rawValue].accepted += 1
        }
        return accepted
    }
}
