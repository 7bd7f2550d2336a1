/// The one place a run's random decisions come from: random from a seed, or replayed from a
/// recorded ``ChoiceSequence``.
///
/// Every draw records its outcome, so ``recorded`` replays the run exactly. In replay mode a value
/// that does not fit its draw (a "misfit", `value >= bound`) or a draw past the end of the sequence
/// (an "exhausted" draw) yields 0, the simplest outcome, and is counted in ``fallbackCount``: an
/// edited or truncated sequence always runs to completion, which is what a shrinker needs.
///
/// ```swift
/// let choices = ChoiceSource(seed: runSeed.derive("workload"))
/// let uploads = choices.int(in: 1...5)
/// let failsFirst = choices.bool(probability: 0.3)
/// let replay = ChoiceSource(replaying: choices.recorded)
/// replay.int(in: 1...5) == uploads && replay.bool(probability: 0.3) == failsFirst   // true
/// ```
///
/// Contract: a draw with only one possible outcome (bound 0 or 1, a one-element range, p <= 0 or
/// p >= 1, one nonzero weight) returns it without consuming or recording anything, in both modes.
/// Not thread-safe: one run, one thread. Draws are O(1) amortized (weights: O(n)).
public final class ChoiceSource {
    /// The sequence being replayed (empty in random mode).
    let replayValues: [UInt64]
    /// The seed of a random source (`nil` when replaying): what an isolated run sends its child.
    let seed: Seed?
    /// The seed that fills a mutant's gaps (``init(replaying:filling:)``); `nil` otherwise.
    let fillSeed: Seed?
    /// Whether this source fills gaps from ``fillSeed``'s generator (a mutant).
    private let fills: Bool

    /// What a draw changes (and what the marks add).
    struct State {
        /// The generator in random mode; unused when replaying.
        var generator: Xoshiro256StarStar
        /// The position of the next replayed value.
        var replayCursor = 0
        /// The outcomes so far.
        var outcomes: [UInt64] = []
        /// Misfit and exhausted draws so far.
        var fallbackCount = 0
        /// Whether a draw read past the sequence's end, or the draws were adopted from another
        /// process: what was read is then not a prefix of the sequence (``replayedPrefixLength``).
        var readBeyondSequence = false
        /// The actions marked so far, in order (see ``markAction(firstDraw:stopDraw:skippable:choice:)``).
        var actions: [ChoiceAction] = []
        /// The idle steps marked so far, in order (see ``markIdleStep(stopDraw:)``).
        var idleSteps: [Range<Int>] = []
        /// The spans marked so far, in the order they were marked (see ``markSpan(_:from:)``).
        var spans: [ChoiceSpan] = []
        /// The positions of the draws marked as scheduling decisions (see ``markScheduleDraw()``).
        var scheduleDraws: [Int] = []
        /// The draws marked as counts of scheduling points (see ``markPointCountDraw()``).
        var pointCountDraws: [PointCountDraw] = []
    }

    /// The mutable state, in one place. Unchecked exclusivity: most events draw, and the dynamic
    /// check cost more than a draw. Safe because a source is confined to one thread and no
    /// access to it spans a call that could reach it again (``withGenerator(_:)``'s callers only
    /// advance the generator). Internal only for the source's own extensions (the marks, in
    /// `ChoiceSource+Marks.swift`); nothing else in the module touches it.
    @exclusivity(unchecked) var state: State

    /// Whether this source replays a sequence (`true`) or draws from a seeded generator.
    public let isReplaying: Bool

    /// While true, every draw gives its simplest outcome (0, `false`, the first possible index)
    /// and consumes and records nothing: set by ``Scheduler/withInertCalls(_:)`` for a dead
    /// process's code, which must not move the run's sequence. Unchecked exclusivity like
    /// `state`: every draw reads it, and a checked read cost more than the draw's own work.
    @exclusivity(unchecked) package var isInert = false

    /// The log of an exhaustive search's run (``init(exploring:log:)``); nil otherwise.
    public let exploration: ExplorationLog?

    /// The scheduling points the run's thread policy has counted so far, in its own measure
    /// (``ChoiceAction/pointsBefore``, ``markPointCountDraw()``): set by a run with controlled
    /// concurrency, read only when a mark is made in replay mode.
    package var pointClock: (() -> Int)?

    /// Misfit and exhausted draws so far in replay mode; always 0 in random mode (a replay of an
    /// unedited recording has 0 fallbacks).
    public var fallbackCount: Int { state.fallbackCount }

    /// A random source: draws come from `Xoshiro256StarStar(seed: seed.rawValue)`.
    ///
    /// ```swift
    /// let choices = ChoiceSource(seed: Seed(0x2a))
    /// ```
    ///
    /// - Parameter seed: the run's (or subsystem's) seed.
    public convenience init(seed: Seed) {
        self.init(generatorSeed: seed.rawValue, replaying: [], seed: seed)
    }

    /// A replaying source: draw `i` returns value `i` of `sequence` when it fits.
    ///
    /// ```swift
    /// let replay = ChoiceSource(replaying: try ChoiceSequence(token: "c1.AAGsAg"))
    /// ```
    ///
    /// - Parameter sequence: a recording, possibly edited or truncated.
    public convenience init(replaying sequence: ChoiceSequence) {
        self.init(generatorSeed: 0, replaying: sequence.values, reservesRecording: true)
    }

    /// A source for one run of an exhaustive search (``ExhaustiveSearch``): replays `prefix`,
    /// then gives every draw its canonical value (``ExplorationLog/setCanonicalForNextDraw(_:)``,
    /// else 0) without counting a fallback; the draw sites record branch points and nodes in `log`.
    ///
    /// ```swift
    /// let log = ExplorationLog()
    /// let verdict = target.run(choices: ChoiceSource(exploring: ChoiceSequence([1, 0, 2]), log: log), keepTrace: false)
    /// ```
    ///
    /// Contract: the recorded outcomes replay the run exactly with ``init(replaying:)``, given the
    /// same run spec (the draws past the prefix are recorded like any other).
    public convenience init(exploring prefix: ChoiceSequence, log: ExplorationLog) {
        self.init(generatorSeed: 0, replaying: prefix.values, exploration: log)
    }

    /// The value that, in a mutant's plan (``init(replaying:filling:)``), stands for "draw this
    /// one at random". A recorded draw never has it (every bound is below `UInt64.max`).
    package static let fillMarker = UInt64.max

    /// A mutant's source (the coverage-guided strategy's runs): draws replay `plan`, except that
    /// a value equal to ``fillMarker`` and every draw past the end of `plan` come from the
    /// generator of `seed`, exactly as a random source of that seed draws them.
    ///
    /// ```swift
    /// // keep the parent's first 40 draws, redraw the next 8, keep the rest, then go on at random
    /// var plan = parent.values
    /// plan.replaceSubrange(40..<48, with: repeatElement(ChoiceSource.fillMarker, count: 8))
    /// let mutant = ChoiceSource(replaying: ChoiceSequence(plan), filling: runSeed)
    /// let replay = ChoiceSource(replaying: mutant.recorded)   // after the run: the same run
    /// ```
    ///
    /// Contract: like a replaying source (actions are marked, misfits of replayed values count as
    /// fallbacks) except that filled draws are not fallbacks and the run does not stop at the end
    /// of `plan`; ``recorded`` replays the run exactly with ``init(replaying:)``. With an empty
    /// plan the draws are those of `ChoiceSource(seed: seed)`.
    public convenience init(replaying plan: ChoiceSequence, filling seed: Seed) {
        self.init(generatorSeed: seed.rawValue, replaying: plan.values, fillSeed: seed, reservesRecording: true)
    }

    /// The one initializer the public ones call: a random source when `seed` is given, else a
    /// replay of `values` (a mutant's with `fillSeed`, an exploration's with `exploration`).
    private init(generatorSeed: UInt64, replaying values: [UInt64], seed: Seed? = nil, fillSeed: Seed? = nil,
                 exploration: ExplorationLog? = nil, reservesRecording: Bool = false) {
        state = State(generator: Xoshiro256StarStar(seed: generatorSeed))
        replayValues = values
        self.seed = seed
        self.fillSeed = fillSeed
        fills = fillSeed != nil
        if reservesRecording { state.outcomes.reserveCapacity(values.count) }
        isReplaying = seed == nil
        self.exploration = exploration
    }

    /// Whether the next draw replays a recorded value (`true`) or draws from the generator. A
    /// mutant's filled draw consumes its marker here. Random mode: always `false`.
    @inline(__always) func replaysNextDraw() -> Bool {
        guard isReplaying else { return false }
        guard fills else { return true }
        let cursor = state.replayCursor
        guard cursor < replayValues.count else { return false }
        guard replayValues[cursor] == Self.fillMarker else { return true }
        state.replayCursor = cursor + 1
        return false
    }

    /// The outcomes drawn so far, in order: replaying them repeats every decision.
    ///
    /// - Complexity: O(1) (the array is shared copy-on-write).
    public var recorded: ChoiceSequence { ChoiceSequence(state.outcomes) }

    /// The number of recorded draws so far (draws with one possible outcome are not counted).
    public var drawCount: Int { state.outcomes.count }

    /// How many values from the front of the replayed sequence decided the run: a plain replay
    /// in this process that read nothing past the end (any sequence starting with those values
    /// replays the same run: ``TriedCandidates``); `nil` otherwise.
    var replayedPrefixLength: Int? {
        guard isReplaying, !fills, exploration == nil, !state.readBeyondSequence else { return nil }
        return state.replayCursor
    }

    /// A value in `0..<bound`; 0 is the simplest.
    ///
    /// ```swift
    /// let queueIndex = Int(choices.draw(below: 3))   // 0, 1 or 2
    /// ```
    ///
    /// Contract: `bound` 0 or 1 returns 0 without consuming or recording anything. Otherwise, in
    /// random mode the value is `Xoshiro256StarStar.next(below: bound)`; in replay mode it is the
    /// next recorded value if it is below `bound`, else 0 (a misfit, which still consumes the
    /// recorded value); past the end it is 0 (exhausted). The returned value is always recorded.
    ///
    /// - Parameter bound: the number of possible outcomes.
    /// - Complexity: O(1) amortized, no allocation beyond the recording's growth.
    public func draw(below bound: UInt64) -> UInt64 {
        if bound <= 1 || isInert { return 0 }
        let value: UInt64
        if replaysNextDraw() {
            value = nextReplayed(below: bound)
        } else {
            value = state.generator.next(below: bound)
        }
        state.outcomes.append(value)
        return value
    }

    /// The next replayed value if it is below `bound`, otherwise 0 (counting a fallback).
    /// Consumes one recorded value if any is left.
    internal func nextReplayed(below bound: UInt64) -> UInt64 {
        guard state.replayCursor < replayValues.count else {
            if let exploration { return min(exploration.takeCanonical(), bound - 1) }  // past an explored prefix
            state.fallbackCount += 1
            state.readBeyondSequence = true
            return 0
        }
        exploration?.clearCanonical()
        let value = replayValues[state.replayCursor]
        state.replayCursor += 1
        if value < bound { return value }
        state.fallbackCount += 1
        return 0
    }

    /// Consumes one replayed value and returns it as is (`nil` past the end, counting a
    /// fallback); for draws that validate outcomes themselves, like weighted picks.
    internal func nextReplayedRaw() -> UInt64? {
        guard state.replayCursor < replayValues.count else {
            if exploration != nil { return nil }  // past an explored prefix: the canonical first index
            state.fallbackCount += 1
            state.readBeyondSequence = true
            return nil
        }
        let value = replayValues[state.replayCursor]
        state.replayCursor += 1
        return value
    }

    /// Counts one replayed value that was unusable.
    internal func countFallback() {
        state.fallbackCount += 1
    }

    /// Records an outcome decided by a caller in this module.
    internal func record(_ outcome: UInt64) {
        state.outcomes.append(outcome)
    }

    /// Gives the random generator to a caller in this module for one draw.
    internal func withGenerator<R>(_ body: (inout Xoshiro256StarStar) -> R) -> R {
        body(&state.generator)
    }

    /// Takes over what a run in another process drew from an equal source (``IsolatedTarget``):
    /// afterwards ``recorded``, ``actions`` and ``fallbackCount`` read as if this source had run.
    internal func adopt(outcomes: [UInt64], actions: [ChoiceAction], idleSteps: [Range<Int>], fallbackCount: Int) {
        state.outcomes = outcomes
        state.actions = actions
        state.idleSteps = idleSteps
        state.fallbackCount = fallbackCount
        state.readBeyondSequence = true  // what the other process read is not known here
    }

    /// Lends the outcomes, actions and idle steps so far to a crash handler (``CrashSignals``),
    /// without copying or allocating: the only access from a signal handler, on the run's own thread.
    internal func withCrashDump(
        _ body: (UnsafeBufferPointer<UInt64>, UnsafeBufferPointer<ChoiceAction>, UnsafeBufferPointer<Range<Int>>) -> Void
    ) {
        state.outcomes.withUnsafeBufferPointer { outcomes in
            state.actions.withUnsafeBufferPointer { actions in
                state.idleSteps.withUnsafeBufferPointer { idleSteps in body(outcomes, actions, idleSteps) }
            }
        }
    }
}
