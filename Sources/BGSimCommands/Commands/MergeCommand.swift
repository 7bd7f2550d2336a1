import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats
import Foundation

/// `bgsim merge REPORT... --report FILE`: joins shard reports into the report one unsharded run
/// gives (timing fields aside).
enum MergeCommand: BGSimCommand {
    static let declaration = CommandDeclaration(
        name: "merge", abstract: "join shard reports into the report one unsharded run gives",
        options: [
            .positional("REPORT", .oneOrMore, help: "the shard reports (fuzz --shard K/N --report FILE), any order"),
            .valued("--report", "FILE", required: true, help: "where to write the merged report"),
        ],
        discussion: ["Timing fields aside, the merged report equals the report of one unsharded run.",
                     "Every number is checked against its report and shard; anything inconsistent is exit 65.",
                     "Exit 0 when the merged campaign met its scenario's expectation (scenario.expect), 1 if not."])

    struct Options {
        var inputs: [String]
        var output: String
    }

    static func validate(_ args: Arguments) throws(CLIError) -> Options {
        Options(inputs: args.positional, output: args.value("--report") ?? "")
    }

    static func run(_ options: Options, io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        let output = options.output
        try OutputPaths.check([OutputFile(option: "--report", path: output)], reading: options.inputs, kind: "report")
        var reports: [[UInt8]] = []
        for path in options.inputs {
            guard let data = FileManager.default.contents(atPath: path), !ScenarioLoader.isDirectory(path) else {
                throw CLIError(.noInput, "\(path): cannot read the report (no such file, or a directory)")
            }
            reports.append([UInt8](data))
        }
        let text: String
        let merged: JSONValue
        do {
            text = try ReportMerge.merge(bytes: reports, names: options.inputs)
            merged = try JSONParser().parse(Array(text.utf8))
        } catch {
            throw CLIError(.dataError, "\(error)")
        }
        try OutputPaths.write(text, to: output)
        let summary = merged["summary"]
        io.out("merged \(reports.count) reports into \(output): \(summary?["runs"]?.description ?? "?") runs, "
            + "\(summary?["failed"]?.description ?? "?") failed, digest \(summary?["traceDigest"]?.stringValue ?? "?")")
        guard let text = merged["scenario"]?["expect"]?.stringValue, let expectation = CampaignExpectation(text: text) else {
            // A report without an expectation (the Swift API's): any violation fails.
            return (summary?["failed"]?.intValue ?? 0) > 0 ? .violation : .success
        }
        let violations = (summary?["violations"]?.objectValue?.members ?? []).map {
            (invariant: $0.key, runs: Int($0.value.intValue ?? 0))
        }
        let verdict = expectation.verdict(violations: violations, runs: Int(summary?["runs"]?.intValue ?? 0),
                                          invariants: [])
        io.out("expect \(expectation): \(verdict.headline)")
        guard verdict.isMissed else { return .success }
        io.err("\(io.toolName) merge: \(merged["scenario"]?["name"]?.stringValue ?? "the scenario") did not meet its "
            + "expectation: \(verdict.headline)")
        return .violation
    }
}
