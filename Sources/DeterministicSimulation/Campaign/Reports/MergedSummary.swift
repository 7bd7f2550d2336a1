import SimulationFormats

/// Shard reports added up, in shard order, each checked against its shard and the campaign.
///
/// ```swift
/// var merged = try MergedSummary(parts, runs: header.runs, maxFailures: header.maxShrunkFailures, searched: false)
/// merged.capFailures(header.maxShrunkFailures)
/// ```
///
/// Contract: every count is read as an integer in its range, every sum is checked (an overflow
/// is an error, never a trap), and every run index a report names (first violations, failures,
/// nondeterminism records) must be one of its runs: for seeded campaigns a run of its shard
/// below `campaign.runs`, for an exhaustive search a run below its `summary.runs`. A completed
/// shard has exactly its shard's runs (``Shard/runCount(of:)``), an interrupted one at most
/// that; a shard that did not search (`exhaustive.searchedInShard`) has none. Work and memory
/// are linear in the reports' size.
struct MergedSummary {
    var summary: ReportSummary
    var jobs = 0
    var coverage = Coverage()
    /// Per failure: the JSON, and its sort key (run index, shard position, position in shard).
    var failures: [(value: JSONValue, key: [Int], invariant: String)] = []
    var nondeterminism: [JSONValue] = []

    /// - Parameters:
    ///   - parts: the reports with their shards, in shard order.
    ///   - runs: `campaign.runs`, the same in every report.
    ///   - maxFailures: `campaign.maxShrunkFailures`: no report lists more failures.
    ///   - searched: whether the reports are of an exhaustive search (run whole in shard 1).
    init(_ parts: [(shard: Shard, reader: ReportReader)], runs: Int, maxFailures: Int,
         searched: Bool) throws(CampaignReportError) {
        summary = ReportSummary()
        var nondeterminismKeyed: [(value: JSONValue, key: [Int])] = []
        for (position, (shard, reader)) in parts.enumerated() {
            let part = try ReportSummary(reader)
            let bound = searched ? Self.searchBound(shard, part: part) : Self.shardBound(shard, runs: runs, part: part)
            try Self.checkRunCount(part, bound: bound, reader)
            try summary.add(part, from: reader)
            for entry in part.totals.violations where !bound.contains(entry.firstRun) {
                throw reader.inconsistent("summary", "firstViolationRuns", entry.invariant,
                                          problem: "run \(entry.firstRun) is not \(bound.description)")
            }
            let (sum, overflow) = jobs.addingReportingOverflow(try reader.int("campaign", "jobs", in: 1...Int.max))
            guard !overflow else { throw reader.inconsistent("campaign", "jobs", problem: "is too large to add up") }
            jobs = sum
            try Self.addCoverage(reader, to: &coverage)
            let listed = try reader.elements("failures")
            guard listed.count <= maxFailures else {
                throw reader.inconsistent("failures", problem: "lists \(listed.count) failures, more than "
                    + "campaign.maxShrunkFailures (\(maxFailures))")
            }
            var invariants: [String] = []
            for (index, failure) in listed.enumerated() {
                let invariant = try failure.string("invariant")
                guard part.totals.violations(of: invariant) != nil, !invariants.contains(invariant) else {
                    throw failure.inconsistent("invariant", problem: "\(invariant) is listed twice or is not among "
                        + "summary.violations")
                }
                invariants.append(invariant)
                failures.append((failure.value, [try Self.runIndex(failure, bound), position, index], invariant))
            }
            for (index, record) in try reader.elements("nondeterminism").enumerated() {
                nondeterminismKeyed.append((record.value, [try Self.runIndex(record, bound), position, index]))
            }
        }
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

    /// The runs one report may hold: how many (`count`, or at most that when interrupted) and
    /// which indices.
    struct RunBound {
        var count: Int
        var contains: (Int) -> Bool
        var description: String
    }

    private static func shardBound(_ shard: Shard, runs: Int, part: ReportSummary) -> RunBound {
        RunBound(count: shard.runCount(of: runs), contains: { $0 < runs && shard.contains(runIndex: $0) },
                 description: "a run of shard \(shard) (runs \(shard.index - 1), \(shard.index - 1 + shard.count), …) "
                    + "below campaign.runs (\(runs))")
    }

    /// An exhaustive search runs whole in shard 1: its runs are numbered from 0 in search order.
    private static func searchBound(_ shard: Shard, part: ReportSummary) -> RunBound {
        let runs = shard.index == 1 ? part.totals.runs : 0
        return RunBound(count: runs, contains: { $0 < runs },
                        description: shard.index == 1 ? "a run below summary.runs (\(runs))" : "a run of this shard (it has none)")
    }

    private static func checkRunCount(_ part: ReportSummary, bound: RunBound, _ reader: ReportReader) throws(CampaignReportError) {
        let runs = part.totals.runs
        guard part.interrupted ? runs <= bound.count : runs == bound.count else {
            throw reader.inconsistent("summary", "runs", problem: "is \(runs), but this shard has "
                + "\(part.interrupted ? "at most " : "")\(bound.count) runs")
        }
    }

    private static func runIndex(_ record: ReportReader, _ bound: RunBound) throws(CampaignReportError) -> Int {
        let index = try record.int("runIndex", in: 0...Int.max)
        guard bound.contains(index) else {
            throw record.inconsistent("runIndex", problem: "run \(index) is not \(bound.description)")
        }
        return index
    }

    /// Adds a report's coverage counts (each at least 0) to `coverage`, checking every sum.
    private static func addCoverage(_ reader: ReportReader, to coverage: inout Coverage) throws(CampaignReportError) {
        for category in try reader.members("coverage") {
            for entry in try category.value.members() {
                let count = try entry.value.int(in: 0...Int.max)
                guard !coverage.count(category.key, entry.key).addingReportingOverflow(count).overflow else {
                    throw reader.inconsistent("coverage", category.key, entry.key, problem: "is too large to add up")
                }
                coverage.add(category.key, entry.key, count: count)
            }
        }
    }
}
