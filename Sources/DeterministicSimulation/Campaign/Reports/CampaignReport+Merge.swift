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
    /// - Throws: ``CampaignReportError`` when there are no reports, a report is not schema
    ///   version 1 or lacks a field, the reports differ in seed, tool, scenario or campaign
    ///   settings, or the shards are not exactly `1...N` of one `N`.
    package static func merge(_ reports: [JSONValue]) throws(CampaignReportError) -> JSONValue {
        guard !reports.isEmpty else {
            throw CampaignReportError(problem: "no reports to merge", fix: "give every shard's report")
        }
        let readers = reports.enumerated().map { ReportReader(value: $1, number: $0 + 1) }
        var shards: [(shard: Shard, reader: ReportReader)] = []
        var header: ReportHeader?
        for reader in readers {
            let version = try reader.int("schemaVersion")
            guard Int64(version) == schemaVersion else {
                throw CampaignReportError(problem: "report \(reader.number): schemaVersion is \(version), not \(schemaVersion)",
                                          fix: "merge reports written by this version of bgsim")
            }
            let current = try ReportHeader(reader)
            if let header { try requireSame(header, current, report: reader.number) }
            header = header ?? current
            shards.append((try shard(of: reader), reader))
        }
        try checkShards(shards.map(\.shard))
        shards.sort { $0.shard.index < $1.shard.index }
        var merged = try MergedSummary(shards.map(\.reader))
        merged.capFailures(header!.maxShrunkFailures)
        return assemble(header: header!, jobs: merged.jobs, shard: .whole, summary: merged.summary,
                        coverage: merged.coverage, failures: merged.failures.map(\.value),
                        nondeterminism: merged.nondeterminism)
    }

    private static func shard(of reader: ReportReader) throws(CampaignReportError) -> Shard {
        let index = try reader.int("campaign", "shard", "index")
        let count = try reader.int("campaign", "shard", "count")
        guard count >= 1, (1...count).contains(index) else {
            throw reader.error("campaign", "shard", problem: "is \(index)/\(count), not K/N with 1 <= K <= N")
        }
        return Shard(index: index, count: count)
    }

    private static func requireSame(_ first: ReportHeader, _ other: ReportHeader, report: Int) throws(CampaignReportError) {
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
                problem: "report \(report): \(field) is \(actual) but report 1's is \(expected)",
                fix: "merge only the shard reports of one campaign (same scenario, seed, runs and tool)")
        }
    }

    private static func checkShards(_ shards: [Shard]) throws(CampaignReportError) {
        let count = shards[0].count
        if let other = shards.first(where: { $0.count != count }) {
            throw CampaignReportError(problem: "shard \(other) does not belong with shard \(shards[0]): different N",
                                      fix: "merge the reports of one --shard K/\(count) matrix")
        }
        let indices = shards.map(\.index).sorted()
        for (position, index) in indices.enumerated() where position > 0 && indices[position - 1] == index {
            throw CampaignReportError(problem: "shard \(index)/\(count) is given twice",
                                      fix: "give each shard's report once")
        }
        let missing = (1...count).filter { !indices.contains($0) }
        guard missing.isEmpty else {
            throw CampaignReportError(
                problem: "shards \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) are missing",
                fix: "give all \(count) shard reports (--shard 1/\(count) ... \(count)/\(count))")
        }
    }
}
