import Foundation

/// Scenarios as a person names them (on a command line): files and folders, none meaning the
/// `Scenarios` folder, and a named file that is not `*.json` refused with a sentence rather than
/// the JSON parser's complaint about its first character.
///
/// ```swift
/// try ScenarioLoader.load(named: [], workloads: .builtIn)            // every Scenarios/*.json
/// try ScenarioLoader.load(namedFile: "README.md", workloads: .builtIn)
/// // ScenarioError.invalid("README.md: not a scenario file (a .md file); scenarios are JSON files …")
/// ```
///
/// Contract: as ``load(paths:workloads:)``, plus: no scenario found is
/// ``ScenarioError/noScenarioFiles(in:)``; a named file that exists, is not a folder and is not
/// `*.json` is ``ScenarioError/invalid(_:)``.
extension ScenarioLoader {
    /// The folder read when no path is named.
    package static let defaultFolder = "Scenarios"

    /// The files and folders to read: as named, or ``defaultFolder`` for none.
    package static func targets(_ paths: [String]) -> [String] {
        paths.isEmpty ? [defaultFolder] : paths
    }

    /// Loads the scenarios named, in order; none named means every file in ``defaultFolder``.
    package static func load(named paths: [String], workloads: WorkloadRegistry) throws(ScenarioError) -> [Scenario] {
        let targets = targets(paths)
        for path in targets { try requireJSON(path) }
        let scenarios = try load(paths: targets, workloads: workloads)
        if scenarios.isEmpty { throw .noScenarioFiles(in: targets) }
        return scenarios
    }

    /// Loads exactly one named scenario file (a folder is an error: a replay needs one scenario).
    package static func load(namedFile path: String, workloads: WorkloadRegistry) throws(ScenarioError) -> Scenario {
        try requireJSON(path)
        return try load(file: path, workloads: workloads)
    }

    /// Refuses a named file that exists but is not `*.json` (a README, a report folder's XML).
    static func requireJSON(_ path: String) throws(ScenarioError) {
        guard !path.hasSuffix(".json"), FileManager.default.fileExists(atPath: path), !isDirectory(path) else { return }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let kind = name.contains(".") ? "a .\(name.split(separator: ".").last ?? "") file" : "a file without an extension"
        throw .invalid("\(path): not a scenario file (\(kind)); scenarios are JSON files named *.json: "
            + "name one, or a folder of them (the format is in BackgroundTaskKit's Scenarios/README.md)")
    }
}
