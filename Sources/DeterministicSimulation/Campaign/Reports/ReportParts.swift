/// The fields shard reports must agree on to be merged.
struct ReportHeader: Equatable {
    var seed: Seed
    var toolName: String
    var toolVersion: String
    var scenarioName: String
    var scenarioFile: String
    var runs: Int
    var determinismSamples: Int
    var maxShrunkFailures: Int
    var shrinkMaxAttempts: Int

    init(seed: Seed, toolName: String, toolVersion: String, scenarioName: String, scenarioFile: String,
         options: CampaignOptions) {
        self.seed = seed
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
        runs = try report.int("campaign", "runs")
        determinismSamples = try report.int("campaign", "determinismSamples")
        maxShrunkFailures = try report.int("campaign", "maxShrunkFailures")
        shrinkMaxAttempts = try report.int("campaign", "shrinkMaxAttempts")
    }
}

/// The report's `summary` object as values, so ``CampaignReport/merge(_:)`` can add shards up
/// and write them back exactly as one unsharded campaign would.
struct ReportSummary {
    var runs: Int
    var passed: Int
    var failed: Int
    /// (invariant, runs, first run index), in order of first appearance.
    var violations: [(invariant: String, runs: Int, firstRun: Int)]
    var events: Int
    var simulatedMicroseconds: Int64
    var wallSeconds: Double
    var runSeconds: Double
    var digest: DigestCombiner
    var stepLimitRuns: Int
    var interrupted: Bool

    init(_ result: CampaignResult) {
        runs = result.runsExecuted
        passed = result.passed
        failed = result.failed
        violations = zip(result.violationCounts, result.firstViolations).map { ($0.invariant, $0.runs, $1.runIndex) }
        events = result.events
        simulatedMicroseconds = result.simulatedMicroseconds
        wallSeconds = result.wallSeconds
        runSeconds = result.runSeconds
        digest = result.digest
        stepLimitRuns = result.stepLimitRuns
        interrupted = result.stop == .interrupted
    }

    var json: JSONValue {
        var violationCounts = JSONObject()
        var firstRuns = JSONObject()
        for entry in violations {
            violationCounts.append(entry.invariant, JSONValue(entry.runs))
            firstRuns.append(entry.invariant, JSONValue(entry.firstRun))
        }
        var summary = JSONObject()
        summary.append("runs", JSONValue(runs))
        summary.append("passed", JSONValue(passed))
        summary.append("failed", JSONValue(failed))
        summary.append("violations", .object(violationCounts))
        summary.append("firstViolationRuns", .object(firstRuns))
        summary.append("events", JSONValue(events))
        summary.append("simulatedSeconds", JSONValue(Double(simulatedMicroseconds) / 1_000_000))
        summary.append("simulatedMicroseconds", .int(simulatedMicroseconds))
        summary.append("wallSeconds", JSONValue(wallSeconds))
        summary.append("runSeconds", JSONValue(runSeconds))
        summary.append("runsPerSecond", JSONValue(runSeconds > 0 ? Double(runs) / runSeconds : 0))
        summary.append("eventsPerSecond", JSONValue(runSeconds > 0 ? Double(events) / runSeconds : 0))
        summary.append("traceDigest", JSONValue(digest.digest.description))
        summary.append("digestSum", JSONValue(TraceDigest(digest.sum).description))
        summary.append("digestCount", JSONValue(TraceDigest(digest.count).description))
        summary.append("stepLimitRuns", JSONValue(stepLimitRuns))
        summary.append("interrupted", JSONValue(interrupted))
        return .object(summary)
    }
}
