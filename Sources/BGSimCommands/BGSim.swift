/// The `bgsim` command line: parses the command name and hands the rest to the command.
///
/// ```swift
/// let code = BGSim.run(["fuzz", "Scenarios/token-correct-ios17.json", "--runs", "100"], io: io)
/// ```
///
/// Contract: never traps; every non-zero exit prints one line to stderr saying what, where and
/// how to fix; exit codes are ``ExitCode``'s.
public enum BGSim {
    /// The tool's version, as reports show it.
    public static let version = "0.1.0"

    public static func run(_ arguments: [String], io: CommandIO, interrupt: Interrupt = .shared) -> ExitCode {
        guard let command = arguments.first else {
            io.err("bgsim: no command given. Run 'bgsim help' for usage.")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "list": return try ListCommand.run(rest, io: io)
            case "help", "--help", "-h":
                io.out(usage)
                return .success
            case "--version", "version":
                io.out("bgsim \(version)")
                return .success
            default:
                return try runCampaignCommand(command, rest, io: io, interrupt: interrupt)
            }
        } catch {
            io.err("bgsim \(command): \(error.message)")
            return error.code
        }
    }

    static let usage = """
        Usage:
          bgsim fuzz [SCENARIO...] [--runs N] [--seed S] [--jobs J] [--shard K/N] [--report FILE] [--junit FILE] [--quiet]
          bgsim replay SCENARIO --seed S [--trace FILE] [--perfetto FILE]
          bgsim replay SCENARIO --choices C [--trace FILE] [--perfetto FILE]
          bgsim check [PATH...]          the CI gate; PATH defaults to Scenarios/
          bgsim list [--json]            workloads, invariants, scenarios, OS profiles, modelled iOS rules
          bgsim bench [--json]           the standard benchmark
          bgsim merge REPORT... --report FILE
        Exit codes: 0 held, 1 invariant violated, 3 nondeterminism, 64 usage, 65 bad data, 66 no input,
        73 cannot write output, 130 interrupted.
        """
}
