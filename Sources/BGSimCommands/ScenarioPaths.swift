import BackgroundTaskSimulator
import Foundation

/// Turning command-line scenario arguments into loaded scenarios, with the contract's exit codes.
enum ScenarioPaths {
    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// The files and folders a command reads scenarios from: as named, or `Scenarios` for none.
    static func targets(_ paths: [String]) -> [String] {
        paths.isEmpty ? ["Scenarios"] : paths
    }

    /// Loads the scenarios named on the command line; none means every file in `Scenarios/`.
    static func load(_ paths: [String], workloads: WorkloadRegistry) throws(CLIError) -> [Scenario] {
        let targets = targets(paths)
        for path in targets { try requireJSON(path) }
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
        try requireJSON(path)
        do {
            return try ScenarioLoader.load(file: path, workloads: workloads)
        } catch {
            throw cliError(error)
        }
    }

    /// A named file that exists but is not `*.json` (a README, a report folder's XML) is not a
    /// scenario: say so, rather than report the JSON parser's complaint about its first character.
    static func requireJSON(_ path: String) throws(CLIError) {
        guard !path.hasSuffix(".json"), FileManager.default.fileExists(atPath: path), !isDirectory(path) else { return }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let kind = name.contains(".") ? "a .\(name.split(separator: ".").last ?? "") file" : "a file without an extension"
        throw CLIError(.dataError, "\(path): not a scenario file (\(kind)); scenarios are JSON files named *.json: "
            + "name one, or a folder of them (the format is in Scenarios/README.md)")
    }

    static func cliError(_ error: ScenarioError) -> CLIError {
        switch error {
        case .unreadable: CLIError(.noInput, error.description)
        case .invalid: CLIError(.dataError, error.description)
        }
    }
}
