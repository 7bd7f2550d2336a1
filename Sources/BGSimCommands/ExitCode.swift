/// Every way `bgsim` can end, mapped to process exit codes in this one place (CONTRACT.md).
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Everything held (`check`: every scenario met its expectation).
    case success = 0
    /// An invariant was violated (`check`: some scenario missed its expectation).
    case violation = 1
    /// A replay did not reproduce its run.
    case nondeterminism = 3
    /// Unknown command or option, bad value (EX_USAGE).
    case usage = 64
    /// A scenario or report that does not parse or names unknown things (EX_DATAERR).
    case dataError = 65
    /// An input file does not exist or cannot be read (EX_NOINPUT).
    case noInput = 66
    /// An output file cannot be written (EX_CANTCREAT).
    case cannotCreate = 73
    /// Interrupted (SIGINT) after writing what was finished: 128 + 2, as shells report it.
    case interrupted = 130
}

/// A failure that ends the command: its exit code and the one line printed to stderr (what,
/// where, how to fix).
public struct CLIError: Error, Sendable, CustomStringConvertible {
    public var code: ExitCode
    public var message: String

    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func usage(_ message: String) -> CLIError {
        CLIError(.usage, "\(message). Run 'bgsim help' for usage.")
    }
}
