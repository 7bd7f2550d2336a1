import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation

/// How a command protects its campaign from crashes and hangs in workload code: runs in child
/// processes (`--isolate`; `check`'s default, `--no-isolate` to opt out), and the wall-clock
/// time a run may go without progress (`--run-timeout`). Declared once here, like ``CampaignFlags``.
///
/// ```swift
/// let isolation = try Isolation(Arguments(parsing: ["--isolate", "--run-timeout", "5"],
///                                         for: FuzzCommand.declaration), byDefault: false)
/// isolation.isolated             // true
/// isolation.runTimeoutSeconds    // 5
/// ```
///
/// Contract: isolation changes what a crash or hang does to the campaign, never the results of
/// runs that neither crash nor hang (same verdicts, digests, coverage for every `--jobs`). The
/// run timeout is wall-clock time and only ever stops a run; 0 turns it off.
struct Isolation: Equatable {
    /// Runs happen in child processes.
    var isolated: Bool
    /// Wall-clock seconds a run may go without progress, as given by `--run-timeout` (0: no limit); nil when
    /// not given (the scenario's `campaign.runTimeoutSeconds`, else ``ScenarioPlan/defaultRunTimeoutSeconds``).
    var runTimeoutSeconds: Double?

    static let isolateOption = OptionDeclaration.flag(
        "--isolate", help: "run the runs in child processes: a crash or hang in workload code becomes a no-crash or "
            + "no-hang finding (shrunk, with its replay) and the campaign goes on")
    static let noIsolateOption = OptionDeclaration.flag(
        "--no-isolate", help: "run the runs in this process, also a scenario that expects no-crash or no-hang (a crash "
            + "then ends the command with exit 70, a hang with exit 124, after printing the run seed and replay command), "
            + "and a Swift concurrency scenario with --jobs above 1 (its runs then run one at a time)")
    static let runTimeoutOption = OptionDeclaration.valued(
        "--run-timeout", "SECONDS", help: "wall-clock seconds a run may go without progress (no job started, no thread "
            + "resumed), 0 for none (default 60); a run that makes no progress for that long is stopped and reported as a "
            + "hang (no-hang), or without isolation stops the command (exit 124); a slow run that progresses is never stopped")

    init(isolated: Bool, runTimeoutSeconds: Double? = nil) {
        self.isolated = isolated
        self.runTimeoutSeconds = runTimeoutSeconds
    }

    /// `--no-isolate` was given.
    var optedOut = false

    init(_ args: Arguments, byDefault: Bool) throws(CLIError) {
        optedOut = args.flag(Self.noIsolateOption.name)
        if optedOut && args.flag(Self.isolateOption.name) {
            throw .usage("--isolate and --no-isolate contradict each other; give one")
        }
        isolated = byDefault ? !optedOut : args.flag(Self.isolateOption.name)
        runTimeoutSeconds = nil
        if let text = args.value(Self.runTimeoutOption.name) {
            guard let seconds = Double(text), seconds.isFinite, (0...86_400).contains(seconds) else {
                throw .usage("--run-timeout \(text): not a number of seconds from 0 to 86400 (e.g. --run-timeout 10; "
                    + "0 turns the limit off)")
            }
            runTimeoutSeconds = seconds
        }
    }

    /// Whether `scenario`'s runs happen in child processes: when asked, and unless `--no-isolate`
    /// said otherwise always for a scenario that expects a crash or a hang (in process its
    /// planted bug would end the command), and for one whose runs run one at a time in a process
    /// (Swift concurrency: ``ScenarioPlan/runsOneAtATime(_:)``) when `jobs` asks for parallel runs.
    func isolates(_ scenario: Scenario, jobs: Int) -> Bool {
        isolated || ((scenario.needsIsolation || (jobs > 1 && ScenarioPlan.runsOneAtATime(scenario))) && !optedOut)
    }

    /// The banner a crash or hang during one of `scenario`'s runs prints (without isolation).
    static func banner(for scenario: Scenario, invocation: String) -> CrashBanner {
        let placeholder = Seed(0).description
        return CrashBanner(
            run: "run seed \(CrashBanner.seedPlaceholder) of scenario \(scenario.name) (\(scenario.file))",
            replay: ReplayCommandText(invocation).seed(scenario, Seed(0)).replacingOccurrences(
                of: placeholder, with: CrashBanner.seedPlaceholder))
    }

    /// The banner of `bgsim replay` (it runs in process: a crash shows the run at once).
    static func replayBanner(_ scenario: Scenario, _ source: ReplayCommand.Source, invocation: String) -> CrashBanner {
        switch source {
        case .seed: return banner(for: scenario, invocation: invocation)
        case .choices(let choices):
            return CrashBanner(run: "the replay of recorded choices of scenario \(scenario.name) (\(scenario.file))",
                               replay: ReplayCommandText(invocation).choices(scenario, choices))
        }
    }

    /// The program an isolated run starts: this executable (`/proc/self/exe`, given by bgsim's
    /// `main` in ``CommandIO/childExecutable``), or for commands run in a test process, the
    /// `bgsim` built next to it.
    static func childExecutable(_ io: CommandIO) throws(CLIError) -> String {
        if let path = io.childExecutable { return path }
        let sibling = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("bgsim").path
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        throw CLIError(.noInput, "isolated runs need the bgsim executable to start as a child, and this process has "
            + "none (\(sibling) does not exist); build it (swift build) or run with --no-isolate")
    }
}
