/// How hard the shrinker tries.
///
/// ```swift
/// let quick = ShrinkOptions(maxAttempts: 200)
/// ```
///
/// Contract: bounded only by attempts (replays), so shrinking is deterministic: the same input
/// gives the same result on every machine and at every load. Hypothesis caps at 500 shrinks; our
/// replays are cheaper, hence 2,000.
public struct ShrinkOptions: Sendable, Equatable {
    /// The most candidate replays one shrink may run (cached repeats are free).
    public var maxAttempts: Int

    public init(maxAttempts: Int = 2_000) {
        self.maxAttempts = max(0, maxAttempts)
    }
}

/// Why a shrink stopped.
public enum ShrinkStop: String, Sendable, Equatable {
    /// A full round of every pass found nothing simpler: a local minimum.
    case fixpoint
    /// ``ShrinkOptions/maxAttempts`` replays were used.
    case attemptLimit
    /// The campaign was cancelled.
    case cancelled
}

/// One shrink pass's statistics.
public struct ShrinkPassStats: Sendable, Equatable {
    /// The pass's name, e.g. `"deleteChunks"`.
    public var name: String
    /// Candidates replayed.
    public var attempts: Int
    /// Candidates accepted (strictly simpler and still failing).
    public var accepted: Int
}

/// What a shrink found.
///
/// Contract: ``choices`` is never less simple than the input (fewer actions, then a simpler
/// sequence) and still keeps the property the shrink was asked to keep.
public struct ShrinkResult: Sendable, Equatable {
    /// The simplest sequence found; replays exactly (no fallbacks).
    public var choices: ChoiceSequence
    /// Events in the run ``choices`` replays.
    public var eventCount: Int
    /// Actions (``ChoiceSource/actions``) in the run ``choices`` replays.
    public var actionCount: Int
    /// Candidate replays run.
    public var attempts: Int
    /// Why shrinking stopped.
    public var stop: ShrinkStop
    /// Per pass, in pass order.
    public var passes: [ShrinkPassStats]
}
