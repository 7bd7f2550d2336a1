import DeterministicSimulation
import SimulationFormats
import Foundation

/// `bgsim merge REPORT... --report FILE`: joins shard reports into the report one unsharded run
/// gives (timing fields aside).
enum MergeCommand {
    static func run(_ arguments: [String], io: CommandIO) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: ["--report"], flags: [])
        guard let output = args.value("--report") else { throw .usage("merge needs --report FILE") }
        guard !args.positional.isEmpty else { throw .usage("merge needs at least one REPORT file") }
        try OutputPaths.check([output])
        var reports: [JSONValue] = []
        for path in args.positional {
            guard let data = FileManager.default.contents(atPath: path), !ScenarioPaths.isDirectory(path) else {
                throw CLIError(.noInput, "\(path): cannot read the report (no such file, or a directory)")
            }
            do {
                reports.append(try JSONParser().parse([UInt8](data)))
            } catch {
                throw CLIError(.dataError, "\(path): not a JSON report: \(error.description)")
            }
        }
        let merged: JSONValue
        do {
            merged = try CampaignReport.merge(reports)
        } catch {
            throw CLIError(.dataError, "merge: \(error)")
        }
        try OutputPaths.write(JSONWriter().string(for: merged), to: output)
        let summary = merged["summary"]
        io.out("merged \(reports.count) reports into \(output): \(summary?["runs"]?.description ?? "?") runs, "
            + "\(summary?["failed"]?.description ?? "?") failed, digest \(summary?["traceDigest"]?.stringValue ?? "?")")
        return (summary?["failed"]?.intValue ?? 0) > 0 ? .violation : .success
    }
}
