import BackgroundTaskSimulator
import Foundation

/// Turning command-line scenario arguments into loaded scenarios, with the contract's exit codes.
enum ScenarioPaths {
    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// Loads the scenarios named on the command line; none means every file in `Scenarios/`.
    static func load(_ paths: [String], workloads: WorkloadRegistry) throws(CLIError) -> [Scenario] {
        let targets = paths.isEmpty ? ["Scenarios"] : paths
        do {
            let scenarios = try ScenarioLoader.load(paths: targets, workloads: workloads)
            if scenarios.isEmpty {
                throw CLIError(.noInput, "\(targets.joined(separator: " ")): no scenario files (*.json) found. "
                    + "Add one (see Scenarios/README.md) or name a file.")
            }
            return scenarios
        } catch let error as ScenarioError {
            throw cliError(error)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.dataError, "\(error)")
        }
    }

    /// Loads exactly one scenario file (a directory is an error: `replay` needs one scenario).
    static func loadFile(_ path: String, workloads: WorkloadRegistry) throws(CLIError) -> Scenario {
        do {
            return try ScenarioLoader.load(file: path, workloads: workloads)
        } catch {
            throw cliError(error)
        }
    }

    static func cliError(_ error: ScenarioError) -> CLIError {
        switch error {
        case .unreadable: CLIError(.noInput, error.description)
        case .invalid: CLIError(.dataError, error.description)
        }
    }
}
