import DeterministicSimulation
package import SimulationFormats

/// The file `bgsim replay --trace FILE` writes and ``RunOutcome/traceJSON`` gives: a header that
/// says which run it is and how it ended, then the run's events (``TraceJSON``).
///
/// ```json
/// {
///   "formatVersion": 1,
///   "tool": {"name": "bgsim", "version": "0.1.0"},
///   "scenario": {"name": "download-manager-p1-forgotten-end-ios17", "file": "Scenarios/…json"},
///   "replay": "swift run bgsim replay Scenarios/…json --choices c1.…",
///   "digest": "9b0c…", "events": 25, "simulatedSeconds": 2160.0, "stop": "quiescent",
///   "violations": [{"invariant": "every-begin-ended", "t": 30.03, "message": "…"}],
///   "trace": [{"t": 0.0, "event": "env.launch", "thread": "system"}, …]
/// }
/// ```
///
/// Contract: `tool`, `scenario` and `replay` are present when the writer knows them (`bgsim
/// replay` does; the Swift API's ``RunOutcome/traceJSON`` has no scenario file or command); the
/// other fields always. `formatVersion` changes when a field changes meaning.
package enum TraceFile {
    /// The format's version.
    package static let formatVersion = 1

    /// What only the writer knows: the tool, the scenario and the command that replays the run.
    package struct Source: Sendable {
        package var toolName: String
        package var toolVersion: String
        package var scenarioName: String
        package var scenarioFile: String
        package var replay: String

        package init(toolName: String, toolVersion: String, scenarioName: String, scenarioFile: String, replay: String) {
            self.toolName = toolName
            self.toolVersion = toolVersion
            self.scenarioName = scenarioName
            self.scenarioFile = scenarioFile
            self.replay = replay
        }
    }

    /// The file's JSON for `outcome`, with `source`'s fields when given.
    package static func json(_ outcome: RunOutcome, source: Source?) -> JSONValue {
        var root = JSONObject()
        root.append("formatVersion", .int(Int64(formatVersion)))
        if let source {
            root.append("tool", .object(["name": .string(source.toolName), "version": .string(source.toolVersion)]))
            root.append("scenario", .object(["name": .string(source.scenarioName), "file": .string(source.scenarioFile)]))
            root.append("replay", .string(source.replay))
        }
        root.append("digest", .string(outcome.digest.description))
        root.append("events", .int(Int64(outcome.eventCount)))
        root.append("simulatedSeconds", TraceJSON.seconds(outcome.endTime))
        root.append("stop", .string(outcome.stop.rawValue))
        root.append("violations", .array(outcome.violations.map { violation in
            var object = JSONObject()
            object.append("invariant", .string(violation.invariant))
            object.append("t", TraceJSON.seconds(violation.time))
            object.append("message", .string(violation.message))
            return .object(object)
        }))
        root.append("trace", TraceJSON.json(outcome.trace))
        return .object(root)
    }
}
