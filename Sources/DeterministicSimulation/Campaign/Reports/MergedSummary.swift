/// Shard reports added up, in shard order.
struct MergedSummary {
    var summary: ReportSummary
    var jobs = 0
    var coverage = Coverage()
    /// Per failure: the JSON, and its sort key (run index, shard position, position in shard).
    var failures: [(value: JSONValue, key: [Int], invariant: String)] = []
    var nondeterminism: [JSONValue] = []

    init(_ readers: [ReportReader]) throws(CampaignReportError) {
        var violations: [(invariant: String, runs: Int, firstRun: Int, key: [Int])] = []
        var digest = DigestCombiner()
        summary = try ReportSummary(readers[0], digest: &digest, violations: &violations, shardPosition: 0)
        var nondeterminismKeyed: [(value: JSONValue, key: [Int])] = []
        for (position, reader) in readers.enumerated() {
            if position > 0 {
                let part = try ReportSummary(reader, digest: &digest, violations: &violations, shardPosition: position)
                summary.add(part)
            }
            jobs += try reader.int("campaign", "jobs")
            coverage.merge(try Self.coverage(reader))
            for (index, failure) in try reader.array("failures").enumerated() {
                let failureReader = ReportReader(value: failure, number: reader.number)
                failures.append((failure, [try failureReader.int("runIndex"), position, index],
                                 try failureReader.string("invariant")))
            }
            for (index, record) in try reader.array("nondeterminism").enumerated() {
                let runIndex = try ReportReader(value: record, number: reader.number).int("runIndex")
                nondeterminismKeyed.append((record, [runIndex, position, index]))
            }
        }
        summary.digest = digest
        summary.violations = Self.firstPerInvariant(violations).map { ($0.invariant, $0.runs, $0.firstRun) }
        nondeterminism = nondeterminismKeyed.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
    }

    /// Keeps each invariant's earliest failure, ordered by run index, at most `cap`.
    mutating func capFailures(_ cap: Int) {
        var kept: [(value: JSONValue, key: [Int], invariant: String)] = []
        for failure in failures.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) })
        where !kept.contains(where: { $0.invariant == failure.invariant }) {
            kept.append(failure)
        }
        failures = Array(kept.prefix(cap))
    }

    private static func firstPerInvariant(_ all: [(invariant: String, runs: Int, firstRun: Int, key: [Int])])
        -> [(invariant: String, runs: Int, firstRun: Int)] {
        var merged: [(invariant: String, runs: Int, firstRun: Int, key: [Int])] = []
        for entry in all {
            if let at = merged.firstIndex(where: { $0.invariant == entry.invariant }) {
                merged[at].runs += entry.runs
                if entry.key.lexicographicallyPrecedes(merged[at].key) {
                    merged[at].firstRun = entry.firstRun
                    merged[at].key = entry.key
                }
            } else {
                merged.append(entry)
            }
        }
        return merged.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.invariant, $0.runs, $0.firstRun) }
    }

    private static func coverage(_ reader: ReportReader) throws(CampaignReportError) -> Coverage {
        var coverage = Coverage()
        for category in try reader.object("coverage").members {
            guard let entries = category.value.objectValue else {
                throw .field(reader.number, "coverage.\(category.key)", "is not an object")
            }
            for entry in entries.members {
                guard let count = entry.value.intValue else {
                    throw .field(reader.number, "coverage.\(category.key).\(entry.key)", "is not an integer")
                }
                coverage.add(category.key, entry.key, count: Int(count))
            }
        }
        return coverage
    }
}

extension ReportSummary {
    /// Reads one shard's summary; its digest parts go into `digest`, its violations (keyed by
    /// first run, shard position and position) into `violations`.
    init(_ reader: ReportReader, digest: inout DigestCombiner,
         violations: inout [(invariant: String, runs: Int, firstRun: Int, key: [Int])],
         shardPosition: Int) throws(CampaignReportError) {
        runs = try reader.int("summary", "runs")
        passed = try reader.int("summary", "passed")
        failed = try reader.int("summary", "failed")
        events = try reader.int("summary", "events")
        simulatedMicroseconds = try reader.int64("summary", "simulatedMicroseconds")
        wallSeconds = try reader.double("summary", "wallSeconds")
        runSeconds = try reader.double("summary", "runSeconds")
        stepLimitRuns = try reader.int("summary", "stepLimitRuns")
        interrupted = try reader.bool("summary", "interrupted")
        digest.merge(DigestCombiner(sum: try reader.hex("summary", "digestSum"),
                                    count: try reader.hex("summary", "digestCount")))
        self.digest = DigestCombiner()
        self.violations = []
        let firstRuns = try reader.object("summary", "firstViolationRuns")
        for (position, member) in try reader.object("summary", "violations").members.enumerated() {
            guard let count = member.value.intValue, let first = firstRuns[member.key]?.intValue else {
                throw .field(reader.number, "summary.violations.\(member.key)",
                             "needs an integer count and a summary.firstViolationRuns entry")
            }
            violations.append((member.key, Int(count), Int(first), [Int(first), shardPosition, position]))
        }
    }

    mutating func add(_ other: ReportSummary) {
        runs += other.runs
        passed += other.passed
        failed += other.failed
        events += other.events
        simulatedMicroseconds += other.simulatedMicroseconds
        wallSeconds += other.wallSeconds
        runSeconds += other.runSeconds
        stepLimitRuns += other.stepLimitRuns
        interrupted = interrupted || other.interrupted
    }
}
