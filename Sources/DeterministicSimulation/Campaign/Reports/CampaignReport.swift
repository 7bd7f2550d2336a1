package import SimulationFormats

/// The JSON campaign report (`bgsim fuzz --report`, the public format of Reports/README.md), and ``merge(_:)`` for
/// shard reports. Every field is documented in `Reports/README.md` and schematized in
/// `Reports/report.schema.json`.
///
/// ```swift
/// let result = Campaign.run(target, options: options)
/// let text = CampaignReport.jsonText(result, scenarioName: "p1", scenarioFile: "Scenarios/p1.json",
///                                     toolVersion: "0.1.0",
///                                     replayCommand: { "bgsim replay Scenarios/p1.json --seed \($0.seed)" })
/// try text.write(toFile: "report.json", atomically: true, encoding: .utf8)
/// ```
///
/// The report is built as a `JSONValue` of the package's internal formats module
/// (`SimulationFormats`); users of the library get its text, which is the exact bytes
/// `bgsim fuzz --report` writes.
///
/// Contract: keys in a fixed order, `schemaVersion` then `seed` first; seeds and digests are
/// strings; all but the timing fields (`campaign.jobs`, `summary.wallSeconds`, `runsPerSecond`,
/// `eventsPerSecond`) are the same for every `jobs` value, and shard reports merge into the
/// unsharded report.
public enum CampaignReport {
    /// The report's format version.
    public static let schemaVersion: Int64 = 1

    /// The report as JSON text, exactly as `bgsim fuzz --report` writes it (the deterministic
    /// writer: fixed key order, no timestamps beyond the timing fields).
    public static func jsonText(_ result: CampaignResult, scenarioName: String, scenarioFile: String,
                                expectation: CampaignExpectation? = nil,
                                toolVersion: String, toolName: String,
                                replayCommand: (FailureRecord) -> String) -> String {
        JSONWriter().string(for: json(result, scenarioName: scenarioName, scenarioFile: scenarioFile,
                                      expectation: expectation, toolVersion: toolVersion, toolName: toolName,
                                      replayCommand: replayCommand))
    }

    /// The report as a JSON value (for the package's own targets: the commands and merge).
    package static func json(_ result: CampaignResult, scenarioName: String, scenarioFile: String,
                             expectation: CampaignExpectation? = nil,
                             toolVersion: String, toolName: String,
                             replayCommand: (FailureRecord) -> String) -> JSONValue {
        let header = ReportHeader(seed: result.options.seed, toolName: toolName, toolVersion: toolVersion,
                                  scenarioName: scenarioName, scenarioFile: scenarioFile, expectation: expectation,
                                  options: result.options)
        let report = assemble(header: header, jobs: result.options.jobs, shard: result.options.shard,
                              summary: ReportSummary(result), coverage: result.coverage,
                              failures: result.failures.map { failureJSON($0, replay: replayCommand($0)) },
                              nondeterminism: result.nondeterminism.map(nondeterminismJSON))
        return result.exhaustive.map { exhaustiveSection(report, $0, shard: result.options.shard) } ?? report
    }

    /// The whole report from its parts, in the fixed key order (shared by ``json`` and ``merge``).
    static func assemble(header: ReportHeader, jobs: Int, shard: Shard, summary: ReportSummary, coverage: Coverage,
                         failures: [JSONValue], nondeterminism: [JSONValue]) -> JSONValue {
        var campaign = JSONObject()
        campaign.append("runs", JSONValue(header.runs))
        campaign.append("jobs", JSONValue(jobs))
        campaign.append("shard", ["index": JSONValue(shard.index), "count": JSONValue(shard.count)])
        campaign.append("determinismSamples", JSONValue(header.determinismSamples))
        campaign.append("maxShrunkFailures", JSONValue(header.maxShrunkFailures))
        campaign.append("shrinkMaxAttempts", JSONValue(header.shrinkMaxAttempts))
        var report = JSONObject()
        report.append("schemaVersion", .int(schemaVersion))
        report.append("seed", JSONValue(header.seed.description))
        report.append("tool", ["name": JSONValue(header.toolName), "version": JSONValue(header.toolVersion)])
        var scenario: JSONObject = ["name": JSONValue(header.scenarioName), "file": JSONValue(header.scenarioFile)]
        if let expectation = header.expectation { scenario.append("expect", JSONValue(expectation)) }
        report.append("scenario", .object(scenario))
        report.append("campaign", .object(campaign))
        report.append("summary", summary.json)
        report.append("coverage", coverageJSON(coverage))
        report.append("failures", .array(failures))
        report.append("nondeterminism", .array(nondeterminism))
        return .object(report)
    }

    /// The report without the fields that measure speed rather than results (`campaign.jobs`,
    /// `summary.wallSeconds`, `runSeconds`, `runsPerSecond`, `eventsPerSecond`) and without
    /// `nondeterminism` (each shard samples its own runs): what must be equal for every `--jobs`
    /// value and between a merged report and the unsharded one.
    ///
    /// ```swift
    /// CampaignReport.timingFree(merged) == CampaignReport.timingFree(whole)   // true
    /// ```
    package static func timingFree(_ report: JSONValue) -> JSONValue {
        guard var object = report.objectValue else { return report }
        if var summary = object["summary"]?.objectValue {
            for key in ["wallSeconds", "runSeconds", "runsPerSecond", "eventsPerSecond"] { summary[key] = nil }
            object["summary"] = .object(summary)
        }
        if var campaign = object["campaign"]?.objectValue {
            campaign["jobs"] = nil
            object["campaign"] = .object(campaign)
        }
        object["nondeterminism"] = nil
        return .object(object)
    }

    static func coverageJSON(_ coverage: Coverage) -> JSONValue {
        var object = JSONObject()
        for category in coverage.categories {
            var entries = JSONObject()
            for entry in category.entries { entries.append(entry.name, JSONValue(entry.count)) }
            object.append(category.name, .object(entries))
        }
        return .object(object)
    }

    static func failureJSON(_ record: FailureRecord, replay: String) -> JSONValue {
        var object = JSONObject()
        object.append("runIndex", JSONValue(record.runIndex))
        object.append("seed", JSONValue(record.seed.description))
        object.append("invariant", JSONValue(record.failure.invariant))
        object.append("message", JSONValue(record.failure.message))
        object.append("time", JSONValue(seconds(record.failure.time)))
        object.append("replay", JSONValue(replay))
        object.append("choices", JSONValue(record.choices.token))
        object.append("originalEventCount", JSONValue(record.originalEventCount))
        object.append("shrunkEventCount", JSONValue(record.shrunkEventCount))
        object.append("originalActionCount", JSONValue(record.originalActionCount))
        object.append("shrunkActionCount", JSONValue(record.shrunkActionCount))
        object.append("shrunkMessage", JSONValue(record.shrunkFailure.message))
        object.append("shrink", record.shrink.map(shrinkJSON) ?? .null)
        if let fault = record.shrinkFault {
            object.append("shrinkFault", ["internalError": JSONValue(fault.isInternalError), "message": JSONValue(fault.message)])
        }
        object.append("trace", .array(record.trace.map(traceLineJSON)))
        return .object(object)
    }

    static func shrinkJSON(_ shrink: ShrinkResult) -> JSONValue {
        var passes = JSONObject()
        for pass in shrink.passes {
            passes.append(pass.name, ["attempts": JSONValue(pass.attempts), "accepted": JSONValue(pass.accepted)])
        }
        return ["attempts": JSONValue(shrink.attempts), "stop": JSONValue(shrink.stop.rawValue),
                "values": JSONValue(shrink.choices.count), "actions": JSONValue(shrink.actionCount),
                "passes": .object(passes)]
    }

    /// `{"t": seconds, "event": name, "thread": label, <fields>}` (`thread` only for an event on
    /// a simulated thread); a field named `t`, `event` or `thread` is skipped.
    package static func traceLineJSON(_ line: TraceLine) -> JSONValue {
        var object = JSONObject()
        object.append("t", JSONValue(seconds(line.time)))
        object.append("event", JSONValue(line.name))
        if let thread = line.thread { object.append("thread", JSONValue(thread)) }
        for field in line.fields where !object.contains(field.key) {
            switch field.value {
            case .int(let value): object.append(field.key, .int(value))
            case .string(let value): object.append(field.key, .string(value))
            case .bool(let value): object.append(field.key, .bool(value))
            }
        }
        return .object(object)
    }

    static func nondeterminismJSON(_ record: NondeterminismRecord) -> JSONValue {
        var object: JSONObject = ["runIndex": JSONValue(record.runIndex), "seed": JSONValue(record.seed.description),
                                  "expected": JSONValue(record.expected.description),
                                  "actual": JSONValue(record.actual.description), "how": JSONValue(record.how)]
        if let difference = record.firstDifference { object.append("firstDifference", JSONValue(difference)) }
        return .object(object)
    }

    static func seconds(_ time: VirtualTime) -> Double { Double(time.microseconds) / 1_000_000 }
}
