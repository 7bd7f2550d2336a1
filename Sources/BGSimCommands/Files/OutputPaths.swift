import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import SimulationFormats

/// The command that reproduces one failure, as printed and reported: it starts the way bgsim was
/// invoked (``CommandIO/invocation``), so it runs as printed, and names the exploration strategy
/// when `--strategy` replaced the scenario's, and always a failure's run's effective strategy in
/// a phased campaign (``Scenario/strategyArgument``, ``Scenario/forRun(_:)``).
///
/// ```swift
/// ReplayCommandText(io.invocation).seed(scenario, failure.seed)
/// // "swift run bgsim replay Scenarios/p1.json --seed 0x80276d8c093bb1e3"
/// ```
struct ReplayCommandText {
    let prefix: String

    init(_ prefix: String) { self.prefix = prefix }

    func seed(_ scenario: Scenario, _ seed: Seed) -> String {
        "\(prefix) replay \(Invocation.shellWord(scenario.file)) --seed \(seed)\(scenario.strategyArgument)"
    }

    func choices(_ scenario: Scenario, _ choices: ChoiceSequence) -> String {
        "\(prefix) replay \(Invocation.shellWord(scenario.file)) --choices \(choices.token)\(scenario.strategyArgument)"
    }

    /// A replay recipe (``ReplayRecipe``) spelled as the `bgsim replay` command that runs it.
    func command(_ recipe: ReplayRecipe) -> String {
        switch recipe.source {
        case .seed(let runSeed): self.seed(recipe.scenario, runSeed)
        case .choices(let sequence): self.choices(recipe.scenario, sequence)
        }
    }

    /// The command that replays a failure: by its run seed, or by its choices for an exhaustive
    /// search and a coverage-guided mutant (``ReplayRecipe/original(of:in:)``).
    func failure(_ scenario: Scenario, _ failure: FailureRecord) -> String {
        command(.original(of: failure, in: scenario))
    }

    /// The command that replays a failure's shrunk choices, under its run's effective strategy.
    func shrunk(_ scenario: Scenario, _ failure: FailureRecord) -> String {
        command(.shrunk(of: failure, in: scenario))
    }
}

/// An output file a command will write, with the option that named it (for messages).
struct OutputFile: Equatable {
    let option: String
    let path: String

    init(option: String, path: String) {
        self.option = option
        self.path = path
    }

    /// The output `option` names, or `nil` when the option was not given.
    init?(_ option: String, _ path: String?) {
        guard let path else { return nil }
        self.init(option: option, path: path)
    }
}

/// Checks that output paths can be written, before any work (exit 73).
enum OutputPaths {
    /// Checks a campaign's files before any work: no output overwrites an input or another
    /// output, every output can be written, and the failure database's folder can be used.
    ///
    /// ```swift
    /// try OutputPaths.checkCampaign(reports: reportPaths, junit: options.junit, scenarios: scenarios,
    ///                               scenarioPaths: options.scenarioPaths, savesFailures: true,
    ///                               failureDatabase: database?.directory)
    /// // bgsim fuzz: --report Scenarios/token-correct-ios17.json would overwrite the scenario file
    /// // Scenarios/token-correct-ios17.json that this command reads; …   (exit 73)
    /// ```
    ///
    /// Contract: paths are compared resolved (``ResolvedPath``: absolute, through symbolic links,
    /// `.` and `..`), never as strings. Refused with exit 73: an output that is a scenario file
    /// being run (its link or the file it names); a `.json` output directly in a scenario folder
    /// named on the command line (the next run would read it as a scenario); an output directly in
    /// the failure database's folder; two outputs on one path; an output that cannot be written
    /// (``AtomicFile/checkWritable(_:)``, names over 255 bytes included). When the command
    /// `savesFailures`, the database folder must be writable or creatable (it is not created
    /// here: only when a failure is saved), else 73; when it only reads it, a file where the
    /// folder should be is 66.
    static func checkCampaign(reports: [String], junit: String?, scenarios: [Scenario], scenarioPaths: [String],
                              savesFailures: Bool, failureDatabase: String?) throws(CLIError) {
        let outputs = reports.map { OutputFile(option: "--report", path: $0) }
            + (junit.map { [OutputFile(option: "--junit", path: $0)] } ?? [])
        let folders = ScenarioLoader.targets(scenarioPaths).filter(ScenarioLoader.isDirectory)
        try checkConflicts(outputs, inputs: scenarios.map(\.file), scenarioFolders: folders,
                           failureDatabase: failureDatabase)
        try check(outputs.map(\.path))
        if let failureDatabase { try checkFailureDatabase(failureDatabase, writes: savesFailures) }
    }

    /// Checks outputs before any work: none overwrites one of `inputs` (what the command reads,
    /// `kind` says what they are) or another output, and each can be written (exit 73).
    ///
    /// ```swift
    /// try OutputPaths.check([OutputFile("--trace", options.trace)], reading: [options.scenarioPath])
    /// // bgsim replay: --trace Scenarios/p1.json would overwrite the scenario file Scenarios/p1.json …
    /// ```
    static func check(_ outputs: [OutputFile?], reading inputs: [String], kind: String = "scenario file") throws(CLIError) {
        let outputs = outputs.compactMap { $0 }
        try checkConflicts(outputs, inputs: inputs, kind: kind)
        try check(outputs.map(\.path))
    }

    /// Refuses an output that would overwrite an input, land where inputs are read from, or
    /// share its path with another output (see ``checkCampaign(reports:junit:scenarios:scenarioPaths:savesFailures:failureDatabase:)``).
    static func checkConflicts(_ outputs: [OutputFile], inputs: [String], kind: String = "scenario file",
                               scenarioFolders: [String] = [], failureDatabase: String? = nil) throws(CLIError) {
        let resolvedInputs = inputs.map { (file: $0, entry: ResolvedPath.entry($0), target: ResolvedPath.file($0)) }
        let resolvedFolders = scenarioFolders.map { (folder: $0, resolved: ResolvedPath.file($0)) }
        let database = failureDatabase.map(ResolvedPath.file)
        var earlier: [(output: OutputFile, entry: String)] = []
        for output in outputs {
            let entry = ResolvedPath.entry(output.path)
            let folder = ResolvedPath.folder(ofEntry: output.path)
            let named = "\(output.option) \(output.path)"
            if let input = resolvedInputs.first(where: { $0.entry == entry || $0.target == entry }) {
                throw CLIError(.cannotCreate, "\(named) would overwrite the \(kind) \(input.file) that this command "
                    + "reads; write \(output.option) elsewhere (for example under Reports/)")
            }
            if output.path.hasSuffix(".json"), let scenarioFolder = resolvedFolders.first(where: { $0.resolved == folder }) {
                throw CLIError(.cannotCreate, "\(named) would put a report in the scenario folder \(scenarioFolder.folder), "
                    + "where later runs would read it as a scenario; write the reports elsewhere (for example --report Reports/)")
            }
            if let failureDatabase, folder == database {
                throw CLIError(.cannotCreate, "\(named) is in the failure database folder \(failureDatabase), which holds "
                    + "only saved failures; write it elsewhere")
            }
            if let other = earlier.first(where: { $0.entry == entry }) {
                throw CLIError(.cannotCreate, "\(named) and \(other.output.option) \(other.output.path) are the same file, "
                    + "so one would overwrite the other; give each output its own path")
            }
            earlier.append((output, entry))
        }
    }

    /// Checks the failure database's folder without creating it: 73 if the campaign cannot save
    /// failures there, 66 if a command that only reads it finds a file in its place.
    static func checkFailureDatabase(_ folder: String, writes: Bool) throws(CLIError) {
        let fix = "give --failure-db a folder bgsim can create or write, or --no-failure-db"
        if !writes {
            guard FileManager.default.fileExists(atPath: folder), !ScenarioLoader.isDirectory(folder) else { return }
            throw CLIError(.noInput, "\(folder): cannot read the failure database: it is a file, not a folder; \(fix)")
        }
        do {
            try AtomicFile.checkFolderWritable(folder)
        } catch {
            let detail = error.systemMessage.map { " (\($0))" } ?? ""
            throw CLIError(.cannotCreate, "\(folder): cannot save failures in this failure database folder: "
                + "\(error.problem)\(detail); \(fix)")
        }
    }

    static func check(_ paths: [String?]) throws(CLIError) {
        for case let path? in paths {
            do {
                try AtomicFile.checkWritable(path)
            } catch {
                throw CLIError(.cannotCreate, error.description)
            }
        }
    }

    /// Renders an output and writes it (``write(_:to:)``) as bgsim's own work: a fault while
    /// rendering or writing is reported as an internal error of bgsim (exit 71) after the
    /// findings already printed, never as a crash of workload code (``CrashSignals/harnessWork(_:_:)``).
    ///
    /// ```swift
    /// try OutputPaths.write(to: "junit.xml", what: "the JUnit file") { gate.junitXML(toolName: "bgsim", replayCommand: replay.command) }
    /// ```
    static func write(to path: String, what: String, _ render: () -> String) throws(CLIError) {
        try CrashSignals.harnessWork(" while writing \(what) \(path)\n") { () throws(CLIError) in
            InjectedFault.atReport()
            try write(render(), to: path)
        }
    }

    /// Writes one output atomically; a signal that comes meanwhile waits for the rename
    /// (``Interrupt/writeAtomically(_:to:)``).
    static func write(_ text: String, to path: String) throws(CLIError) {
        do throws(OutputError) {
            try Interrupt.writeAtomically(text, to: path)
        } catch {
            throw CLIError(.cannotCreate, error.description)
        }
    }
}
