package import SimulationFormats

extension CampaignReport {
    /// Joins the reports of the shards `1/N ... N/N` of one campaign into the report the
    /// unsharded campaign gives, timing aside.
    ///
    /// ```swift
    /// let whole = try CampaignReport.merge([shard1, shard2, shard3])
    /// ```
    ///
    /// Contract: counts, the trace digest (from `digestSum`/`digestCount`) and coverage are added
    /// up; violations and failures keep, per invariant, the first run index over all shards,
    /// ordered by run index and capped at `campaign.maxShrunkFailures`, exactly as one unsharded
    /// run selects them. Timing: `wallSeconds` is the sum over shards (machine time), rates are
    /// derived from it, and `campaign.jobs` is the sum of the shards' jobs. Coverage entries keep
    /// their first appearance in shard order, which equals the unsharded order when every run
    /// lists the same entries (the simulator lists all, zeros included).
    ///
    /// Every number is checked before it is added up (``MergedSummary``, ``RunTotals/init(_:)``):
    /// counts are integers of at least 0, `passed + failed == runs`, violation counts are at most
    /// `failed`, `traceDigest` is the digest of `digestSum` and `digestCount`, `digestCount` is
    /// `runs`, every run index named is one of the shard's runs, each shard has its number of
    /// runs, and sums never overflow. Each report's `digestSum` adds up digests of runs the report
    /// does not list, so it cannot be checked from the report alone. An exhaustive search runs
    /// whole in shard 1; the other shards' reports say so (``mergedSearch(_:)``) and add nothing.
    ///
    /// - Parameters:
    ///   - reports: the shard reports, in any order.
    ///   - names: how errors name each report (its file); `report N` (from 1) where none is given.
    /// - Throws: ``CampaignReportError`` naming the report and the field when there are no
    ///   reports, a report is not schema version 1, lacks a field or contradicts itself, the
    ///   reports differ in seed, tool, scenario or campaign settings, or the shards are not
    ///   exactly `1...N` of one `N`. Never traps; work is linear in the reports' size.
    package static func merge(_ reports: [JSONValue], names: [String] = []) throws(CampaignReportError) -> JSONValue {
        guard !reports.isEmpty else {
            throw CampaignReportError(problem: "no reports to merge", fix: "give every shard's report")
        }
        let readers = reports.indices.map {
            ReportReader(value: reports[$0], number: $0 + 1, name: $0 < names.count ? names[$0] : nil)
        }
        var shards: [(shard: Shard, reader: ReportReader)] = []
        var first: ReportHeader?
        for reader in readers {
            let version = try reader.int("schemaVersion")
            guard Int64(version) == schemaVersion else {
                throw CampaignReportError(problem: "\(reader.name): schemaVersion is \(version), not \(schemaVersion)",
                                          fix: "merge reports written by this version of \((try? reader.string("tool", "name")) ?? "the tool")")
            }
            let current = try ReportHeader(reader)
            if let first { try requireSame(first, current, reader, first: readers[0]) }
            first = first ?? current
            shards.append((try shard(of: reader), reader))
        }
        try checkShards(shards)
        shards.sort { $0.shard.index < $1.shard.index }
        let header = first!
        let search = try mergedSearch(shards)
        var merged = try MergedSummary(shards, runs: header.runs, maxFailures: header.maxShrunkFailures,
                                       searched: search != nil)
        merged.capFailures(header.maxShrunkFailures)
        let report = assemble(header: header, jobs: merged.jobs, shard: .whole, summary: merged.summary,
                              coverage: merged.coverage, failures: merged.failures.map(\.value),
                              nondeterminism: merged.nondeterminism)
        return search.map { exhaustiveSection(report, $0) } ?? report
    }

    private static func shard(of reader: ReportReader) throws(CampaignReportError) -> Shard {
        let index = try reader.int("campaign", "shard", "index")
        let count = try reader.int("campaign", "shard", "count")
        guard count >= 1, (1...count).contains(index) else {
            throw reader.error("campaign", "shard", problem: "is \(index)/\(count), not K/N with 1 <= K <= N")
        }
        return Shard(index: index, count: count)
    }

    private static func requireSame(_ first: ReportHeader, _ other: ReportHeader, _ reader: ReportReader,
                                    first firstReader: ReportReader) throws(CampaignReportError) {
        let checks: [(String, String, String)] = [
            ("seed", first.seed.description, other.seed.description),
            ("scenario.name", first.scenarioName, other.scenarioName),
            ("scenario.file", first.scenarioFile, other.scenarioFile),
            ("scenario.expect", first.expectation ?? "(none)", other.expectation ?? "(none)"),
            ("campaign.runs", String(first.runs), String(other.runs)),
            ("tool", "\(first.toolName) \(first.toolVersion)", "\(other.toolName) \(other.toolVersion)"),
            ("campaign.determinismSamples", String(first.determinismSamples), String(other.determinismSamples)),
            ("campaign.maxShrunkFailures", String(first.maxShrunkFailures), String(other.maxShrunkFailures)),
            ("campaign.shrinkMaxAttempts", String(first.shrinkMaxAttempts), String(other.shrinkMaxAttempts)),
        ]
        for (field, expected, actual) in checks where expected != actual {
            throw CampaignReportError(
                problem: "\(reader.name): \(field) is \(actual) but \(firstReader.name)'s is \(expected)",
                fix: "merge only the shard reports of one campaign (same scenario, seed, runs and tool)")
        }
    }

    /// The shards must be `1/N ... N/N`, each once. Work is bounded by the number of reports,
    /// never by `N` (a tampered `N` of 10^15 is an error, not a loop).
    private static func checkShards(_ shards: [(shard: Shard, reader: ReportReader)]) throws(CampaignReportError) {
        let (first, count) = (shards[0], shards[0].shard.count)
        if let other = shards.first(where: { $0.shard.count != count }) {
            throw CampaignReportError(
                problem: "\(other.reader.name): shard \(other.shard) does not belong with \(first.reader.name)'s shard "
                    + "\(first.shard): different N", fix: "merge the reports of one matrix of shards K/\(count)")
        }
        let sorted = shards.sorted { $0.shard.index < $1.shard.index }
        for (previous, current) in zip(sorted, sorted.dropFirst()) where previous.shard == current.shard {
            throw CampaignReportError(problem: "\(current.reader.name): shard \(current.shard) is given twice (also "
                + "\(previous.reader.name))", fix: "give each shard's report once")
        }
        let indices = sorted.map(\.shard.index)
        guard indices.count < count else { return }  // distinct, within 1...count: all there
        var missing: [Int] = []
        var (candidate, next) = (1, 0)
        while candidate <= count && missing.count < 5 {  // at most indices.count + 5 steps
            if next < indices.count && indices[next] == candidate { next += 1 } else { missing.append(candidate) }
            candidate += 1
        }
        let more = count - indices.count - missing.count
        throw CampaignReportError(
            problem: "shards \(missing.map { "\($0)/\(count)" }.joined(separator: ", "))"
                + (more > 0 ? " and \(more) more" : "") + " are missing",
            fix: "give all \(count) shard reports (shards 1/\(count) ... \(count)/\(count))")
    }
}
