/// What the crash and hang banners say about the runs of one campaign: which run was going on,
/// and the command that replays it. The text is formatted once per worker thread when it takes a
/// ``CrashSlot``; each run only writes its seed's 16 hex digits into the places marked `{seed}`.
///
/// ```swift
/// let banner = CrashBanner(
///     run: "run seed {seed} of scenario token-correct-ios17 (Scenarios/token-correct-ios17.json)",
///     replay: "bgsim replay Scenarios/token-correct-ios17.json --seed {seed}")
/// banner.text(seed: Seed(0x2a))
/// // " during run seed 0x000000000000002a of scenario token-correct-ios17 (…)\n"
/// // "bgsim: replay: bgsim replay Scenarios/token-correct-ios17.json --seed 0x000000000000002a\n"
/// ```
///
/// Contract: `{seed}` may appear any number of times in either part (none: the text is fixed, as
/// for a replay of recorded choices); it is replaced by the seed as `0x` and 16 hex digits. The
/// formatted text is cut at ``CrashSlot/capacity`` bytes.
public struct CrashBanner: Sendable, Equatable {
    /// The run, as the banner's first line ends: `run seed {seed} of scenario NAME (FILE)`.
    public var run: String
    /// The command that replays it: `bgsim replay FILE --seed {seed}`.
    public var replay: String

    /// The placeholder for the run seed.
    public static let seedPlaceholder = "{seed}"

    public init(run: String, replay: String) {
        self.run = run
        self.replay = replay
    }

    /// The same banner for a rerun of a failure after the campaign's runs (the follow-up reruns
    /// and shrinks it): the seed still replays the original run.
    var followingUp: CrashBanner {
        CrashBanner(run: "the follow-up (rerun or shrink) of the failure of " + run, replay: replay)
    }

    /// What a fault of bgsim's own code prints while it follows up the failure of `invariant`
    /// found by the run of `seed` (``CrashSlot/beginHarness(_:)``): the failure, unshrunk, and
    /// the command that replays it.
    ///
    /// ```swift
    /// banner.internalError(seed: Seed(0x2a), invariant: "no-double-end", message: "task 3 ended twice")
    /// // " while following up (rerunning and shrinking) the failure below\n"
    /// // "bgsim: the failure: no-double-end in run seed 0x000000000000002a of scenario …: task 3 ended twice\n"
    /// // "bgsim: replay: bgsim replay Scenarios/….json --seed 0x000000000000002a\n"
    /// ```
    public func internalError(seed: Seed, invariant: String, message: String) -> String {
        let program = CrashWording.current.program
        return Self.fill(" while following up (rerunning and shrinking) the failure below\n\(program): the failure: "
            + "\(invariant) in \(run): \(message)\n\(program): replay: \(replay)\n", seed: seed)
    }

    /// The text the handler writes after its first words (`bgsim: CRASH: fatal signal SIGILL`),
    /// with `{seed}` as it stands.
    var template: String {
        " during \(run)\n\(CrashWording.current.program): replay: \(replay)\n"
    }

    /// The text with `seed` in place of every `{seed}`: what a crash during that run prints.
    public func text(seed: Seed) -> String { Self.fill(template, seed: seed) }

    /// `text` with `seed` in place of every `{seed}`.
    private static func fill(_ text: String, seed: Seed) -> String {
        text.split(separator: seedPlaceholder, omittingEmptySubsequences: false).joined(separator: seed.description)
    }
}
