public import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import SimulationFormats

extension BGSim {
    /// The whole `bgsim` executable, for this package's workloads or a user's own: reads the
    /// process's arguments, runs the command and exits with its code. A user's package builds its
    /// own `bgsim` with one `main.swift`:
    ///
    /// ```swift
    /// import BGSimCommands
    /// import UploadKitWorkloads
    ///
    /// BGSim.main(workloads: UploadKitWorkloads.all)
    /// ```
    ///
    /// Every command (fuzz, replay, check, list, bench, merge, help) then takes scenario files that
    /// name those workloads, with the same flags, reports and exit codes as the package's `bgsim`.
    ///
    /// - Parameters:
    ///   - workloads: the workloads scenario files may name (each ``WorkloadInfo/name`` is
    ///     `family/variant` in kebab-case); empty means the package's own demonstration workloads.
    ///   - includingBuiltIn: also offer the package's own workloads beside `workloads`.
    ///
    /// Contract: never returns. A workload list that cannot be registered (a bad or repeated name)
    /// prints one line naming it and exits 65 (bad input data). SIGINT and SIGTERM stop a campaign
    /// and exit 130 or 143 after writing what finished (``Interrupt``).
    public static func main(workloads: [WorkloadInfo] = [], includingBuiltIn: Bool = false) -> Never {
        let registry: WorkloadRegistry
        if workloads.isEmpty {
            registry = .builtIn
        } else {
            do {
                registry = try WorkloadRegistry(workloads, includingBuiltIn: includingBuiltIn)
            } catch {
                let tool = Invocation.toolName(argv0: CommandLine.arguments.first ?? "")
                FileHandle.standardError.write(Data("\(tool): \(error)\n".utf8))
                exit(ExitCode.dataError.rawValue)
            }
        }
        let environment = ProcessInfo.processInfo.environment
        #if os(Linux)
            let executable = "/proc/self/exe"  // isolated runs start this same program as their child
        #else
            let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        #endif
        let io = CommandIO(
            writeOut: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            writeErr: { text in FileHandle.standardError.write(Data(text.utf8)) },
            stderrIsTerminal: isatty(STDERR_FILENO) == 1,
            invocation: Invocation.prefix(argv0: CommandLine.arguments.first ?? "bgsim", environment: environment),
            environment: environment,
            failureDatabase: CommandIO.defaultFailureDatabase,
            workloads: registry,
            childExecutable: executable,
            toolName: Invocation.toolName(argv0: CommandLine.arguments.first ?? ""))
        AtomicFile.reportFileSizeLimitAsError()  // `ulimit -f`: a clear exit 73, not a silent SIGXFSZ death
        Interrupt.shared.install()
        installCrashHandling(tool: io.toolName)
        exit(status(of: run(Array(CommandLine.arguments.dropFirst()), io: io), interrupt: .shared))
    }

    /// The process's exit status for a command's code: 128 + the signal's number (130 for SIGINT,
    /// 143 for SIGTERM) whenever a stop was asked for and the command did not fail with an error,
    /// even if its campaign had finished when the signal came (its report then says
    /// `"interrupted": false`); else the code itself.
    static func status(of code: ExitCode, interrupt: Interrupt) -> Int32 {
        guard interrupt.isRequested, ExitCode.mostSevere(code, .interrupted) == .interrupted else { return code.rawValue }
        return interrupt.exitStatus
    }
}
