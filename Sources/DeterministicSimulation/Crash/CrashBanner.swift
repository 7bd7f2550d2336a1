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

    /// The text the handler writes after its first words (`bgsim: CRASH: fatal signal SIGILL`),
    /// with `{seed}` as it stands.
    var template: String {
        " during \(run)\nbgsim: replay: \(replay)\n"
    }

    /// The text with `seed` in place of every `{seed}`: what a crash during that run prints.
    public func text(seed: Seed) -> String {
        template.split(separator: Self.seedPlaceholder, omittingEmptySubsequences: false).joined(separator: seed.description)
    }
}
