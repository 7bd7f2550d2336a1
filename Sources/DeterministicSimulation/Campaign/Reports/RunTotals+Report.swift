// Reading run totals back from a report's `summary` (what `merge` adds up); they are written
// by `ReportSummary.json`.

extension RunTotals {
    /// The totals of a report's `summary` object.
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
    init(_ summary: ReportReader) throws(CampaignReportError) {
        self.init()
        runs = try summary.int("runs")
        passed = try summary.int("passed")
        failed = try summary.int("failed")
        events = try summary.int("events")
        simulatedMicroseconds = try summary.int64("simulatedMicroseconds")
        let limited = try summary.int("stepLimitRuns")
        stops.add(.stepLimit, count: limited)
        stops.add(.quiescent, count: runs - limited)
        digest = DigestCombiner(sum: try summary.hex("digestSum"), count: try summary.hex("digestCount"))
        let firstRuns = try summary.member("firstViolationRuns")
        for (position, member) in try summary.members("violations").enumerated() {
            add(InvariantViolations(invariant: member.key, runs: try member.value.read([]),
                                    firstRun: try firstRuns.int(member.key), position: position))
        }
    }
}
