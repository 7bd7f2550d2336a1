import BackgroundTaskSimulator

/// Scenario arguments of a command, loaded by the simulator (``ScenarioLoader``'s `load(named:)`),
/// with the contract's exit codes: 66 for a file that cannot be read or no scenario found, 65
/// for one that does not parse or is not `*.json`.
///
/// ```swift
/// let scenarios = try ScenarioPaths.load(options.scenarioPaths, workloads: io.workloads)
/// ```
enum ScenarioPaths {
    static func load(_ paths: [String], workloads: WorkloadRegistry) throws(CLIError) -> [Scenario] {
        do {
            return try ScenarioLoader.load(named: paths, workloads: workloads)
        } catch {
            throw cliError(error)
        }
    }

    static func loadFile(_ path: String, workloads: WorkloadRegistry) throws(CLIError) -> Scenario {
        do {
            return try ScenarioLoader.load(namedFile: path, workloads: workloads)
        } catch {
            throw cliError(error)
        }
    }

    static func cliError(_ error: ScenarioError) -> CLIError {
        switch error {
        case .unreadable, .noScenarioFiles: CLIError(.noInput, error.description)
        case .invalid: CLIError(.dataError, error.description)
        }
    }
}
