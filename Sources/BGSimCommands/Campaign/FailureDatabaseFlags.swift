import BackgroundTaskSimulator

/// `--failure-db DIR` and `--no-failure-db`, shared by `fuzz` and `check`: which
/// ``DirectoryFailureStore`` (the simulator's failure database) a command uses.
///
/// ```swift
/// let flags = try FailureDatabaseFlags(args)
/// let store = flags.store(default: io.failureDatabase)   // nil: off
/// ```
///
/// Contract: `--no-failure-db` turns the database off; `--failure-db DIR` uses DIR; neither uses
/// the default the executable passes (`.bgsim/failures` in the working directory; in-process
/// callers such as tests get none unless they pass one); both is a usage error.
struct FailureDatabaseFlags {
    var directory: String?
    var disabled: Bool

    static let directoryOption = OptionDeclaration.valued(
        "--failure-db", "DIR", help: "the failure database: saved failures replayed first, new ones saved by fuzz "
            + "(default: .bgsim/failures)")
    static let disableOption = OptionDeclaration.flag(
        "--no-failure-db", help: "neither replay nor save saved failures")

    init(_ args: Arguments) throws(CLIError) {
        directory = args.value(Self.directoryOption.name)
        disabled = args.flag(Self.disableOption.name)
        if disabled && directory != nil {
            throw .usage("--failure-db and --no-failure-db contradict each other; give one")
        }
    }

    /// The store (its files written as every output is, ``Interrupt/writeAtomically(_:to:)``: a
    /// signal waits for the rename); nil when off.
    func store(default folder: String?) -> DirectoryFailureStore? {
        disabled ? nil : (directory ?? folder).map { DirectoryFailureStore(directory: $0) }
    }
}

extension CLIError {
    /// A failure store's error in bgsim's terms: its exit code, and a fix naming the options.
    init(_ error: FailureStoreError) {
        switch error.kind {
        case .unreadable:
            self.init(.noInput, "\(error.message); fix its permissions, delete it, or run with --no-failure-db")
        case .notASavedFailure, .uncheckedInvariant:
            self.init(.dataError, "\(error.message); delete the file or run with --no-failure-db")
        case .badField:
            self.init(.dataError, "\(error.message); delete the file (the failure database rebuilds itself) or run "
                + "with --no-failure-db")
        case .cannotCreate:
            self.init(.cannotCreate, "\(error.message); give --failure-db a writable folder or --no-failure-db")
        case .cannotWrite:
            self.init(.cannotCreate, error.message)
        }
    }
}
