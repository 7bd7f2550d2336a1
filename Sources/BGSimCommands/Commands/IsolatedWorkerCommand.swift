import BackgroundTaskSimulator

/// `bgsim _isolated-worker SCENARIO [STRATEGY]`: the hidden command an isolated campaign starts as
/// its child, the CLI's door to ``ScenarioWorker`` (which owns the protocol): it loads the
/// scenario and serves run requests on stdin with verdict lines on stdout until stdin ends. Not
/// listed by `bgsim help`: nobody types it.
///
/// ```swift
/// IsolatedWorkerCommand.run(["/repo/Scenarios/token-correct-ios17.json"], io: io)
/// ```
///
/// Contract: exit 0 at the end of its input; 64 for arguments that are not a scenario file and
/// an optional strategy; 65/66 for a scenario that does not load; 65 for a request it cannot
/// read. A crash in a run ends it with 70 after writing the run's choices.
enum IsolatedWorkerCommand {
    static func run(_ arguments: [String], io: CommandIO) -> ExitCode {
        let name = ScenarioWorker.commandName
        ScenarioWorker.attachToParent()
        guard let request = ScenarioWorker.Request(arguments) else {
            io.err("\(io.toolName) \(name): internal command; it takes one scenario file and optionally an exploration "
                + "strategy (it is started by --isolate)")
            return .usage
        }
        var scenario: Scenario
        do {
            scenario = try ScenarioPaths.loadFile(request.file, workloads: io.workloads)
        } catch {
            io.err("\(io.toolName) \(name): \(error.message)")
            return error.code
        }
        scenario.strategyOverride = request.strategy
        let code = ScenarioWorker.serve(scenario, wording: BGSim.crashWording(tool: io.toolName), crashExitCode: ExitCode.crashed.rawValue,
                                        internalErrorExitCode: ExitCode.internalError.rawValue)
        return code == 0 ? .success : .dataError
    }
}
