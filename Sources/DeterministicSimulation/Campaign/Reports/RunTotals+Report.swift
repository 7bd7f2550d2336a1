// Reading run totals back from a report's `summary` (what `merge` adds up); they are written
// by `ReportSummary.json`.

extension RunTotals {
    /// The most invariants one report's `summary.violations` may name: far above any real
    /// scenario's, and low enough that merging per invariant stays fast on a tampered report.
    static let maxReportedInvariants = 1_000

    /// The totals of a report's `summary` object, every number checked against the others.
    ///
    /// ```swift
    /// var whole = try RunTotals(shard1.member("summary"))
    /// whole.merge(try RunTotals(shard2.member("summary")))
    /// ```
    ///
    /// Contract: exact for every field the report records. A report records only how many runs
    /// hit a limit (`stepLimitRuns`), so those are counted under ``RunStop/stepLimit`` and the
    /// rest under ``RunStop/quiescent``: ``StopCounts/hitLimit`` is exact, the split is not.
    /// Violations keep the report's order (by first run), which orders invariants first violated
    /// in the same run.
    ///
    /// - Throws: ``CampaignReportError`` naming the field when a count is negative or not an
    ///   integer, `passed + failed != runs`, `stepLimitRuns` or a violation count is above its
    ///   bound (`runs`, `failed`), `firstViolationRuns` does not name exactly the violated
    ///   invariants, `digestCount != runs`, or `traceDigest` is not the digest of `digestSum`
    ///   and `digestCount` (``DigestCombiner/digest``). `digestSum` itself is the sum over runs'
    ///   digests the report does not list, so it cannot be checked from the report alone.
    init(_ summary: ReportReader) throws(CampaignReportError) {
        self.init()
        runs = try summary.int("runs", in: 0...Int.max)
        passed = try summary.int("passed", in: 0...runs)
        failed = try summary.int("failed", in: 0...runs)
        guard passed + failed == runs else {
            throw summary.inconsistent("failed", problem: "passed (\(passed)) + failed (\(failed)) is not runs (\(runs))")
        }
        events = try summary.int("events", in: 0...Int.max)
        simulatedMicroseconds = try summary.int64("simulatedMicroseconds")
        guard simulatedMicroseconds >= 0 else {
            throw summary.inconsistent("simulatedMicroseconds", problem: "is \(simulatedMicroseconds), below 0")
        }
        let limited = try summary.int("stepLimitRuns", in: 0...runs)
        stops.add(.stepLimit, count: limited)
        stops.add(.quiescent, count: runs - limited)
        digest = try Self.digest(summary, runs: runs)
        try readViolations(summary)
    }

    /// `digestSum` and `digestCount`, checked against `runs` and `traceDigest`.
    private static func digest(_ summary: ReportReader, runs: Int) throws(CampaignReportError) -> DigestCombiner {
        let digest = DigestCombiner(sum: try summary.hex("digestSum"), count: try summary.hex("digestCount"))
        guard digest.count == UInt64(runs) else {
            throw summary.inconsistent("digestCount", problem: "counts \(digest.count) runs, but runs is \(runs)")
        }
        let written = try summary.string("traceDigest")
        guard written == digest.digest.description else {
            throw summary.inconsistent("traceDigest", problem: "is \(written), but digestSum and digestCount give "
                + digest.digest.description)
        }
        return digest
    }

    /// `violations` (runs per invariant, at most `failed`) and `firstViolationRuns` (the same keys).
    private mutating func readViolations(_ summary: ReportReader) throws(CampaignReportError) {
        let members = try summary.members("violations")
        guard members.count <= Self.maxReportedInvariants else {
            throw summary.inconsistent("violations", problem: "names \(members.count) invariants, more than the "
                + "\(Self.maxReportedInvariants) a report may name")
        }
        let firstRuns = try summary.member("firstViolationRuns")
        let firstRunKeys = try firstRuns.members().map(\.key)
        guard firstRunKeys == members.map(\.key) else {
            throw summary.inconsistent("firstViolationRuns", problem: "names \(firstRunKeys.joined(separator: ", ")), "
                + "not the invariants of violations (\(members.map(\.key).joined(separator: ", ")))")
        }
        if let first = members.first, failed == 0 {
            throw summary.inconsistent("violations", first.key, problem: "counts runs, but failed is 0")
        }
        for (position, member) in members.enumerated() {
            add(InvariantViolations(invariant: member.key, runs: try member.value.int(in: 1...failed),
                                    firstRun: try firstRuns.int(member.key, in: 0...Int.max), position: position))
        }
    }
}
