/// `--failure-db DIR` and `--no-failure-db`, shared by `fuzz` and `check`.
///
/// ```swift
/// let flags = try FailureDatabaseFlags(args)
/// let database = flags.database(default: io.failureDatabase)   // nil: off
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

    func database(default folder: String?) -> FailureDatabase? {
        if disabled { return nil }
        return (directory ?? folder).map { FailureDatabase(directory: $0) }
    }
}
