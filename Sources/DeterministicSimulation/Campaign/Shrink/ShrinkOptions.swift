/// How hard the shrinker tries, and how much time and memory one shrink may take.
///
/// ```swift
/// let quick = ShrinkOptions(maxAttempts: 200)
/// let patient = ShrinkOptions(maxSeconds: 600, maxCacheBytes: 1 << 30)   // 10 minutes, 1 GiB
/// ```
///
/// Contract: attempts (replays) bound the work, so a shrink that ends within its time is
/// deterministic: the same input gives the same result on every machine and at every load.
/// Hypothesis caps at 500 shrinks; our replays are cheaper, hence 2,000. Wall time
/// (``maxSeconds``) never changes which candidates are tried, only when trying stops
/// (``ShrinkStop/timeLimit``, with the simplest failure found so far); the cache bound
/// (``maxCacheBytes``) depends only on the candidates, so it keeps results deterministic.
public struct ShrinkOptions: Sendable, Equatable {
    /// The default ``maxSeconds``: one minute per failure.
    public static let defaultMaxSeconds = 60.0
    /// The default ``maxCacheBytes``: 256 MiB.
    public static let defaultMaxCacheBytes = 256 << 20

    /// The most candidate replays one shrink may run (exact repeats and candidates a replay's
    /// read front decides are free: ``ShrinkResult/replays``).
    public var maxAttempts: Int
    /// The most wall-clock seconds one failure's shrink may take (default 60). Checked before
    /// every replay; a replay under way finishes first. Values of a billion seconds or more (or
    /// `.infinity`) mean no limit.
    public var maxSeconds: Double
    /// The most bytes the cache of judged candidates may hold (default 256 MiB): a trie of their
    /// values (and of what their replays read), 16 bytes a value where they part from the ones
    /// before; on a run of millions of draws (the minimum gap, the maximum horizon) the cache
    /// reached gigabytes before this bound. When full, later candidates are not cached (a repeat
    /// is replayed again); the shrink goes on.
    public var maxCacheBytes: Int

    public init(maxAttempts: Int = 2_000, maxSeconds: Double = defaultMaxSeconds,
                maxCacheBytes: Int = defaultMaxCacheBytes) {
        self.maxAttempts = max(0, maxAttempts)
        self.maxSeconds = maxSeconds.isNaN ? 0 : max(0, maxSeconds)
        self.maxCacheBytes = max(0, maxCacheBytes)
    }

    /// ``maxSeconds`` as a duration; `nil` for no limit (a billion seconds or more: about 32 years).
    var timeLimit: Duration? {
        maxSeconds < 1e9 ? .seconds(max(0, maxSeconds)) : nil
    }
}

/// Why a shrink stopped.
public enum ShrinkStop: String, Sendable, Equatable {
    /// A full round of every pass found nothing simpler: a local minimum.
    case fixpoint
    /// ``ShrinkOptions/maxAttempts`` replays were used.
    case attemptLimit
    /// ``ShrinkOptions/maxSeconds`` of wall-clock time were used: the simplest failure found so
    /// far is the result.
    case timeLimit
    /// The campaign was cancelled (a Ctrl-C): polled before every replay, so the shrink stops
    /// within one; the simplest failure found so far is the result.
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
/// Contract: ``choices`` is never less simple than the input's recording (fewer actions, then a
/// simpler sequence; the recording is the input itself for any recorded run, else what the
/// input replays as) and still keeps the property the shrink was asked to keep if the input did.
public struct ShrinkResult: Sendable, Equatable {
    /// The simplest sequence found; replays exactly (no fallbacks).
    public var choices: ChoiceSequence
    /// Events in the run ``choices`` replays.
    public var eventCount: Int
    /// Actions (``ChoiceSource/actions``) in the run ``choices`` replays.
    public var actionCount: Int
    /// Candidates judged: replays run, plus those whose front an earlier replay read whole
    /// (``replays`` counts only the first).
    public var attempts: Int
    /// Why shrinking stopped.
    public var stop: ShrinkStop
    /// Per pass, in pass order.
    public var passes: [ShrinkPassStats]
    /// Candidate replays run (what ``ShrinkOptions/maxAttempts`` bounds): ``attempts`` less the
    /// candidates that started with exactly what an earlier replay read, whose outcome was
    /// therefore known (the run never reads further).
    public var replays: Int
}
