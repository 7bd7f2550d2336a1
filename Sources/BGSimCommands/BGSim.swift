import BackgroundTaskSimulator
public import DeterministicSimulation
import Foundation

/// The `bgsim` command line: finds the command by name and hands it the rest.
///
/// ```swift
/// let code = BGSim.run(["fuzz", "Scenarios/token-correct-ios17.json", "--runs", "100"], io: io)
/// ```
///
/// Contract: never traps; every non-zero exit prints one line to stderr saying what, where and
/// how to fix; exit codes are ``ExitCode``'s. `bgsim help [CMD]`, `bgsim CMD --help` and `-h`
/// print help derived from the commands' declarations to stdout and exit 0.
public enum BGSim {
    /// The tool's version, as reports show it.
    public static let version = "0.1.0"

    /// Installs the crash banner's fatal-signal handler (exit 70, ``ExitCode/crashed``; 71,
    /// ``ExitCode/internalError``, for a fault of bgsim's own follow-up code): what
    /// bgsim's `main` does first, so a crash in workload code names its run. A user's own bgsim
    /// built on this library calls it the same way. `BGSIM_CRASH_HANDLER=off` in the environment
    /// leaves Swift's own crash handling (its backtracer) in place, and the hang watchdog off:
    /// for a debugger, or to measure what the banner costs.
    public static func installCrashHandling(tool: String = "bgsim") {
        if let value = ProcessInfo.processInfo.environment["BGSIM_CRASH_HANDLER"], value == "off" { return }
        CrashSignals.install(exitCode: ExitCode.crashed.rawValue, wording: crashWording(tool: tool),
                             internalErrorExitCode: ExitCode.internalError.rawValue)
    }

    /// bgsim's words in crash and hang banners: its name (`tool`, a user's own bgsim's name too),
    /// and its options (the engine prints no command line of its own).
    static func crashWording(tool: String) -> CrashWording {
        CrashWording(
            program: tool, timeoutSetting: "--run-timeout",
            crashAdvice: "; with --isolate, fuzz and check report it as no-crash and go on",
            hangAdvice: "; with --isolate, fuzz and check report it as no-hang and go on; raise --run-timeout if one "
                + "job of your code takes this long")
    }

    /// Every command, in the order `bgsim help` lists them.
    static var commands: [any BGSimCommand.Type] {
        [FuzzCommand.self, ReplayCommand.self, CheckCommand.self, ListCommand.self, BenchCommand.self,
         MergeCommand.self, HelpCommand.self]
    }

    public static func run(_ arguments: [String], io: CommandIO, interrupt: Interrupt = .shared) -> ExitCode {
        guard let name = arguments.first else {
            io.err("\(io.toolName): no command given. Run '\(io.toolName) help' for usage.")
            return .usage
        }
        if name == "--version" || name == "version" {
            io.out(io.toolName == "bgsim" ? "bgsim \(version)" : "\(io.toolName) (BackgroundTaskKit's bgsim \(version))")
            return .success
        }
        if name == ScenarioWorker.commandName {
            return IsolatedWorkerCommand.run(Array(arguments.dropFirst()), io: io)
        }
        let commandName = CommandDeclaration.helpNames.contains(name) ? HelpCommand.declaration.name : name
        let command: any BGSimCommand.Type
        do {
            command = try self.command(named: commandName)
        } catch {
            io.err("\(io.toolName): \(error.withUsageHint("\(io.toolName) help").message)")
            return error.code
        }
        do {
            return try command.main(Array(arguments.dropFirst()), io: io, interrupt: interrupt)
        } catch {
            io.err("\(io.toolName) \(commandName): \(error.message)")
            return error.code
        }
    }

    /// The command with this name; a usage error with "did you mean" if there is none.
    static func command(named name: String) throws(CLIError) -> any BGSimCommand.Type {
        if let command = commands.first(where: { $0.declaration.name == name }) { return command }
        let names = commands.map { $0.declaration.name }
        let near = NameSuggestion.command(for: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw .usage("unknown command '\(name)'\(near)")
    }
}
