import DeterministicSimulation
import Foundation
import SimulationFormats

/// Reads and validates scenario files (`Scenarios/*.json`, format in `Scenarios/README.md`).
///
/// ```swift
/// let scenarios = try ScenarioLoader.loadAll(in: "Scenarios")
/// ```
///
/// Contract: unknown keys, unknown names and out-of-range numbers are errors (``ScenarioError``)
/// that name the file, the field path and the fix; nothing is silently ignored or defaulted
/// wrongly. Never traps, whatever the bytes.
public enum ScenarioLoader {
    /// Loads one file; its workload is looked up in `workloads`.
    public static func load(file path: String, workloads: WorkloadRegistry = .builtIn) throws(ScenarioError) -> Scenario {
        let bytes = try read(path)
        return try parse(bytes, file: path, workloads: workloads)
    }

    /// Parses scenario bytes; `file` is used in messages.
    public static func parse(
        _ bytes: [UInt8], file: String, workloads: WorkloadRegistry = .builtIn
    ) throws(ScenarioError) -> Scenario {
        do {
            var root = try JSONObjectReader.parse(bytes, file: file)
            return try ScenarioDecoder.decode(&root, file: file, workloads: workloads)
        } catch {
            throw ScenarioError(error)
        }
    }

    /// Every `*.json` in `directory`, sorted by file name; duplicate scenario names are an error.
    public static func loadAll(
        in directory: String, workloads: WorkloadRegistry = .builtIn
    ) throws(ScenarioError) -> [Scenario] {
        let files = try jsonFiles(in: directory)
        var scenarios: [Scenario] = []
        for file in files {
            try append(try load(file: file, workloads: workloads), to: &scenarios)
        }
        return scenarios
    }

    /// Loads files and directories as given on a command line, in order. Two scenarios with one
    /// name (or one file named twice) are an error: reports, JUnit suites and saved failures are
    /// keyed by the name, so one would overwrite the other's.
    public static func load(
        paths: [String], workloads: WorkloadRegistry = .builtIn
    ) throws(ScenarioError) -> [Scenario] {
        var scenarios: [Scenario] = []
        for path in paths {
            let loaded = isDirectory(path) ? try loadAll(in: path, workloads: workloads) : [try load(file: path, workloads: workloads)]
            for scenario in loaded { try append(scenario, to: &scenarios) }
        }
        return scenarios
    }

    /// Appends `scenario` unless one of `scenarios` has its name (an error naming both files).
    static func append(_ scenario: Scenario, to scenarios: inout [Scenario]) throws(ScenarioError) {
        if let other = scenarios.first(where: { $0.name == scenario.name }) {
            let twice = ResolvedPath.file(other.file) == ResolvedPath.file(scenario.file)
            throw ScenarioError(ConfigError(file: scenario.file, path: "$.name",
                problem: twice ? "this scenario file is named twice on the command line (also as \(other.file))"
                    : "duplicate scenario name '\(scenario.name)', also used by \(other.file)",
                fix: twice ? "Name each scenario once." : "Give each scenario a unique name."))
        }
        scenarios.append(scenario)
    }

    /// Whether `path` names a folder (through a symbolic link too).
    package static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    static func jsonFiles(in directory: String) throws(ScenarioError) -> [String] {
        guard isDirectory(directory) else { throw .unreadable(path: directory, reason: "no such directory") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadable(path: directory, reason: "the directory cannot be listed")
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return names.filter { $0.hasSuffix(".json") }.sorted().map { base + $0 }
    }

    static func read(_ path: String) throws(ScenarioError) -> [UInt8] {
        if isDirectory(path) {
            throw .unreadable(path: path, reason: "it is a directory, not a scenario file")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw .unreadable(path: path, reason: "no such file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "it cannot be read (check its permissions)")
        }
        return [UInt8](data)
    }
}

/// Why a scenario could not be loaded: the file is missing or unreadable, or there is none
/// (exit 66), or its contents are invalid (exit 65).
public enum ScenarioError: Error, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// The files and folders named hold no `*.json` file (exit 66).
    case noScenarioFiles(in: [String])
    /// The contents are invalid: the one-line message names the file, the field path (or line
    /// and column), the problem and the fix, e.g. `Scenarios/x.json: $.campaign.runs: expected
    /// an integer from 1 to 10000000, found -5. Set a positive number of runs.`
    case invalid(String)

    /// A reading error of the scenario reader.
    init(_ error: ConfigError) { self = .invalid(error.description) }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "\(path): cannot read the scenario: \(reason). Check the path (scenarios live in Scenarios/*.json)."
        case .noScenarioFiles(let paths):
            "\(paths.joined(separator: " ")): no scenario files (*.json) found. Add one (see BackgroundTaskKit's Scenarios/README.md) or "
                + "name a file."
        case .invalid(let message): message
        }
    }
}
