/// The words a front end gives the crash banner and the hang watchdog: the name each banner
/// line starts with, the last line after a crash or a hang (what to do next, in the front end's
/// terms), and how a user sets the run timeout. The engine prints no command line of its own:
/// a command-line tool names its options here, a test API its calls.
///
/// ```swift
/// let wording = CrashWording(
///     program: "mytool", timeoutSetting: "--timeout",
///     crashAdvice: "; rerun with --isolate to go on after a crash",
///     hangAdvice: "; raise --timeout if one job of your code takes this long")
/// CrashSignals.install(exitCode: 70, wording: wording)
/// // a crash prints: "mytool: CRASH: fatal signal SIGILL (…) during run seed 0x… of …"
/// //                 "mytool: replay: …"
/// //                 "mytool: the process ends with exit code 70 (a crash in workload code); rerun with …"
/// ```
///
/// Contract: plain values, read when the handler is installed (``CrashSignals/install(exitCode:wording:internalErrorExitCode:)``)
/// and by the watchdog and isolation when they word a hang; nothing here changes what a run
/// computes. ``crashTrailer`` or ``hangTrailer``, when set, replace the whole last line.
public struct CrashWording: Sendable, Equatable {
    /// The name every banner line starts with, before `: ` (a command-line tool's name).
    public var program: String
    /// How the user sets the wall-clock run timeout, named in parentheses after a hang's
    /// duration (`--run-timeout`, `WorkloadCampaign.runTimeout`); empty: not named.
    public var timeoutSetting: String
    /// Appended to "the process ends with exit code N (a crash in workload code)".
    public var crashAdvice: String
    /// Appended to "the process ends with exit code N (a hang in workload code)".
    public var hangAdvice: String
    /// The whole line after a crash banner, replacing the one ``crashAdvice`` ends (nil: that one).
    public var crashTrailer: String?
    /// What an isolated worker that ended (or went silent) before it began serving most likely
    /// means, after "the isolated worker could not start: it ended before serving (exit code N)".
    public var workerStartAdvice = ""

    public init(program: String = "simulation", timeoutSetting: String = "", crashAdvice: String = "",
                hangAdvice: String = "", crashTrailer: String? = nil) {
        self.program = program
        self.timeoutSetting = timeoutSetting
        self.crashAdvice = crashAdvice
        self.hangAdvice = hangAdvice
        self.crashTrailer = crashTrailer
    }

    /// The words the process installed with its crash handler, else the defaults.
    public static var current: CrashWording { CrashSignals.state?.wording ?? CrashWording() }

    /// ` (SETTING)` after a hang's duration, or "" when no setting is named.
    var timeoutNote: String { timeoutSetting.isEmpty ? "" : " (\(timeoutSetting))" }

    /// The line after a crash banner.
    func crashLine(exitCode: Int32) -> String {
        crashTrailer ?? "\(program): the process ends with exit code \(exitCode) (a crash in workload code)\(crashAdvice)\n"
    }

    /// The line after a hang banner.
    func hangLine(exitCode: Int32) -> String {
        "\(program): the process ends with exit code \(exitCode) (a hang in workload code)\(hangAdvice)\n"
    }

    /// The line that names the code a hung run was in (``StuckCode``).
    func stuckLine(_ stuck: String) -> String { "\(program)\(Self.stuckOpening)\(stuck)\n" }

    /// The code a hung run was in, from the `was in` line of a hang banner in `stderr`; nil
    /// without one.
    static func stuckCode(inStderr stderr: String) -> String? {
        for line in stderr.split(separator: "\n").reversed() {
            guard let range = line.firstRange(of: stuckOpening), !line[..<range.lowerBound].contains(" ") else { continue }
            return String(line[range.upperBound...])
        }
        return nil
    }

    /// The line after a fault of the harness's own code (``CrashSlot/beginHarness(_:)``).
    func internalErrorLine(exitCode: Int32) -> String {
        "\(program): the process ends with exit code \(exitCode) (an internal error of \(program), not of your "
            + "code); the findings above stand (unshrunk): please report the error with their replay commands\n"
    }

    /// Whether `line` (trimmed) is one of a banner's lines, whatever program wrote it: a word,
    /// `: `, then one of the banner's openings. Isolation leaves these out of a crash's message.
    static func isBannerLine(_ line: some StringProtocol) -> Bool {
        if line.hasPrefix(current.program) { return true }
        guard let colon = line.firstIndex(of: ":"), !line[..<colon].isEmpty,
              !line[..<colon].contains(" ") else { return false }
        return bannerOpenings.contains { line[colon...].hasPrefix($0) }
    }

    /// What follows `PROGRAM` on a banner line.
    private static let bannerOpenings = [": CRASH:", ": HANG:", ": INTERNAL ERROR:", ": replay:", ": the failure:",
                                         ": the process ends", stuckOpening]

    /// What follows `PROGRAM` on the line naming a hung run's code (``stuckLine(_:)``).
    static let stuckOpening = ": the run was in "

    /// The opening of a hang banner, as the watchdog writes it.
    static let hangOpening = ": HANG: "
}
