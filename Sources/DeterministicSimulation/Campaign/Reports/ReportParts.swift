import SimulationFormats

/// The fields shard reports must agree on to be merged.
struct ReportHeader: Equatable {
    var seed: Seed
    var toolName: String
    var toolVersion: String
    var scenarioName: String
    var scenarioFile: String
    /// The scenario's expectation as text (`pass`, `violation <id>`), when the writer knew it.
    var expectation: String?
    var runs: Int
    var determinismSamples: Int
    var maxShrunkFailures: Int
    var shrinkMaxAttempts: Int

    init(seed: Seed, toolName: String, toolVersion: String, scenarioName: String, scenarioFile: String,
         expectation: CampaignExpectation? = nil, options: CampaignOptions) {
        self.seed = seed
        self.expectation = expectation?.description
        self.toolName = toolName
        self.toolVersion = toolVersion
        self.scenarioName = scenarioName
        self.scenarioFile = scenarioFile
        runs = options.runs
        determinismSamples = options.determinismSamples
        maxShrunkFailures = options.maxShrunkFailures
        shrinkMaxAttempts = options.shrink.maxAttempts
    }

    init(_ report: ReportReader) throws(CampaignReportError) {
        seed = try report.seed("seed")
        toolName = try report.string("tool", "name")
        toolVersion = try report.string("tool", "version")
        scenarioName = try report.string("scenario", "name")
        scenarioFile = try report.string("scenario", "file")
        expectation = report.value["scenario"]?["expect"]?.stringValue
        runs = try report.int("campaign", "runs", in: 0...Int.max)
        determinismSamples = try report.int("campaign", "determinismSamples", in: 0...Int.max)
        maxShrunkFailures = try report.int("campaign", "maxShrunkFailures", in: 0...Int.max)
        shrinkMaxAttempts = try report.int("campaign", "shrinkMaxAttempts", in: 0...Int.max)
    }
}

/// The report's `summary` object as values: the run totals plus the campaign's timing and
/// whether it was interrupted, so ``CampaignReport/merge(_:)`` can add shards up and write them
/// back exactly as one unsharded campaign would.
struct ReportSummary {
    var totals: RunTotals
    var wallSeconds: Double
    var runSeconds: Double
    var interrupted: Bool

    /// No runs: what ``add(_:from:)`` starts from.
    init() {
        totals = RunTotals()
        wallSeconds = 0
        runSeconds = 0
        interrupted = false
    }

    init(_ result: CampaignResult) {
        totals = result.totals
        wallSeconds = result.wallSeconds
        runSeconds = result.runSeconds
        interrupted = result.stop == .interrupted
    }

    /// Reads one shard's summary, every number checked (``RunTotals/init(_:)``; times at least 0).
    init(_ report: ReportReader) throws(CampaignReportError) {
        totals = try RunTotals(report.member("summary"))
        wallSeconds = try report.double("summary", "wallSeconds")
        runSeconds = try report.double("summary", "runSeconds")
        interrupted = try report.bool("summary", "interrupted")
        for (name, seconds) in [("wallSeconds", wallSeconds), ("runSeconds", runSeconds)] where !(seconds >= 0) {
            throw report.inconsistent("summary", name, problem: "is \(seconds), below 0")
        }
    }

    /// Adds another shard's summary (`other` read from `report`), with checked arithmetic: a sum
    /// too large for its type is an error naming the field, never a trap.
    mutating func add(_ other: ReportSummary, from report: ReportReader) throws(CampaignReportError) {
        let sums: [(String, Bool)] = [
            ("runs", totals.runs.addingReportingOverflow(other.totals.runs).overflow),
            ("events", totals.events.addingReportingOverflow(other.totals.events).overflow),
            ("simulatedMicroseconds",
             totals.simulatedMicroseconds.addingReportingOverflow(other.totals.simulatedMicroseconds).overflow),
            ("wallSeconds", !(wallSeconds + other.wallSeconds).isFinite),
            ("runSeconds", !(runSeconds + other.runSeconds).isFinite),
        ]
        for (name, overflows) in sums where overflows {
            throw report.inconsistent("summary", name, problem: "is too large: the sum over the reports overflows")
        }
        totals.merge(other.totals)
        wallSeconds += other.wallSeconds
        runSeconds += other.runSeconds
        interrupted = interrupted || other.interrupted
    }

    /// The `summary` object; every key of ``RunTotals`` is written here, and read back by
    /// `RunTotals.init(_:)` (`RunTotals+Report.swift`).
    var json: JSONValue {
        var violationCounts = JSONObject()
        var firstRuns = JSONObject()
        for entry in totals.violations {
            violationCounts.append(entry.invariant, JSONValue(entry.runs))
            firstRuns.append(entry.invariant, JSONValue(entry.firstRun))
        }
        let runs = totals.runs, events = totals.events
        var summary = JSONObject()
        summary.append("runs", JSONValue(runs))
        summary.append("passed", JSONValue(totals.passed))
        summary.append("failed", JSONValue(totals.failed))
        summary.append("violations", .object(violationCounts))
        summary.append("firstViolationRuns", .object(firstRuns))
        summary.append("events", JSONValue(events))
        summary.append("simulatedSeconds", JSONValue(totals.simulatedSeconds))
        summary.append("simulatedMicroseconds", .int(totals.simulatedMicroseconds))
        summary.append("wallSeconds", JSONValue(wallSeconds))
        summary.append("runSeconds", JSONValue(runSeconds))
        summary.append("runsPerSecond", JSONValue(runSeconds > 0 ? Double(runs) / runSeconds : 0))
        summary.append("eventsPerSecond", JSONValue(runSeconds > 0 ? Double(events) / runSeconds : 0))
        summary.append("traceDigest", JSONValue(totals.digest.digest.description))
        summary.append("digestSum", JSONValue(TraceDigest(totals.digest.sum).description))
        summary.append("digestCount", JSONValue(TraceDigest(totals.digest.count).description))
        summary.append("stepLimitRuns", JSONValue(totals.stops.hitLimit))
        summary.append("interrupted", JSONValue(interrupted))
        return .object(summary)
    }
}
