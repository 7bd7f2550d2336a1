/// Every way `bgsim` can end, mapped to process exit codes in this one place (README.md's exit-code
/// table is the public promise).
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Every scenario met its expectation (a planted bug found as expected counts); for `replay`,
    /// no invariant was violated.
    case success = 0
    /// A scenario missed its expectation (`fuzz`, `check`, `merge`): a correct workload violated an
    /// invariant, or a planted bug was not found; for `replay`, the run violated an invariant.
    case violation = 1
    /// A replay did not reproduce its run.
    case nondeterminism = 3
    /// Unknown command or option, bad value (EX_USAGE).
    case usage = 64
    /// A scenario or report that does not parse or names unknown things (EX_DATAERR).
    case dataError = 65
    /// An input file does not exist or cannot be read (EX_NOINPUT).
    case noInput = 66
    /// Workload code crashed (a fatal signal) in a run without isolation; the banner on stderr
    /// names the run seed and the replay command (EX_SOFTWARE). Ends the process from the signal
    /// handler (`CrashSignals`), never returned by a command.
    case crashed = 70
    /// An internal error of bgsim itself (its shrinker or follow-up trapped or made no progress),
    /// never of the code under test: the failure it was following up is still reported, unshrunk,
    /// with its run seed and replay command. Isolated (`check`, `fuzz --isolate`), the shrink ran
    /// in a child and the campaign went on: the command ends with 71 after every scenario;
    /// without isolation the handler prints the failure and ends the process with 71.
    case internalError = 71
    /// An output file cannot be written (EX_CANTCREAT).
    case cannotCreate = 73
    /// A run without isolation made no progress for `--run-timeout`; the banner names its seed
    /// and replay command (124, as `timeout(1)`). Ends the process from the watchdog.
    case hung = 124
    /// Interrupted (SIGINT) after writing what was finished: 128 + 2, as shells report it.
    case interrupted = 130
    /// Terminated (SIGTERM, as a CI cancel sends) after writing what was finished: 128 + 15. Like
    /// ``interrupted``, the process's status comes from the first signal (``Interrupt``).
    case terminated = 143

    /// What the code means, for the exit-code table of `bgsim help`.
    var meaning: String {
        switch self {
        case .success: "every scenario met its expectation (a planted bug found as expected counts); replay: none violated"
        case .violation: "fuzz, check, merge: a scenario missed its expectation; replay: an invariant was violated"
        case .nondeterminism: "nondeterminism: a replay did not reproduce its run"
        case .usage: "usage error: unknown command or option, bad value"
        case .dataError: "bad input data: a scenario or report that does not parse or names unknown things"
        case .noInput: "an input file does not exist or cannot be read"
        case .cannotCreate: "an output file cannot be written (checked before any work)"
        case .crashed: "workload code crashed in a run without isolation; stderr names the run seed and replay"
        case .internalError: "an internal error of bgsim (not of your code); the failure it hit is still reported, unshrunk, with its replay"
        case .hung: "a run without isolation exceeded --run-timeout; stderr names the run seed and replay"
        case .interrupted: "interrupted (SIGINT, Ctrl-C); the reports hold the runs that finished"
        case .terminated: "terminated (SIGTERM, as a CI cancel sends); the reports hold the runs that finished"
        }
    }

    /// The code a command ends with when its parts ended with these: the most serious one.
    ///
    /// ```swift
    /// ExitCode.mostSevere(.violation, .nondeterminism)   // .nondeterminism
    /// ExitCode.mostSevere(.nondeterminism, .interrupted) // .interrupted
    /// ```
    ///
    /// The one place that decides precedence: success < violation < internal error <
    /// nondeterminism < interrupted (an interrupted campaign is incomplete, whatever it found; a
    /// digest that does not replay makes every other result doubtful; an internal error only cost
    /// a shrink, its finding stands). Errors (64-73) end a command at once, so they only
    /// meet outcomes here by mistake; they rank above every outcome.
    public static func mostSevere(_ codes: ExitCode...) -> ExitCode {
        codes.max { $0.severity < $1.severity } ?? .success
    }

    private var severity: Int {
        switch self {
        case .success: 0
        case .violation: 1
        case .internalError: 2
        case .nondeterminism: 3
        case .interrupted, .terminated: 4
        case .usage, .dataError, .noInput, .cannotCreate, .crashed, .hung: 5
        }
    }
}

/// A failure that ends the command: its exit code and the one line printed to stderr (what,
/// where, how to fix).
public struct CLIError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ExitCode
    public var message: String

    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// A usage error (64). The command that reports it adds where to read the usage
    /// (``withUsageHint(_:)``), so the line ends "Run 'bgsim help fuzz' for usage."
    static func usage(_ message: String) -> CLIError {
        CLIError(.usage, message.hasSuffix("?") || message.hasSuffix(".") ? message : message + ".")
    }

    /// This error with "Run '`help`' for usage." appended, if it is a usage error.
    func withUsageHint(_ help: String) -> CLIError {
        code == .usage ? CLIError(code, "\(message) Run '\(help)' for usage.") : self
    }
}
