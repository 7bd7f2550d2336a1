import SimulationFormats

/// Shard reports added up, in shard order.
struct MergedSummary {
    var summary: ReportSummary
    var jobs = 0
    var coverage = Coverage()
    /// Per failure: the JSON, and its sort key (run index, shard position, position in shard).
    var failures: [(value: JSONValue, key: [Int], invariant: String)] = []
    var nondeterminism: [JSONValue] = []

    init(_ readers: [ReportReader]) throws(CampaignReportError) {
        summary = try ReportSummary(readers[0])
        var nondeterminismKeyed: [(value: JSONValue, key: [Int])] = []
        for (position, reader) in readers.enumerated() {
            if position > 0 { summary.add(try ReportSummary(reader)) }
            jobs += try reader.int("campaign", "jobs")
            coverage.merge(try Self.coverage(reader))
            for (index, failure) in try reader.elements("failures").enumerated() {
                failures.append((failure.value, [try failure.int("runIndex"), position, index],
                                 try failure.string("invariant")))
            }
            for (index, record) in try reader.elements("nondeterminism").enumerated() {
                nondeterminismKeyed.append((record.value, [try record.int("runIndex"), position, index]))
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

    private static func coverage(_ reader: ReportReader) throws(CampaignReportError) -> Coverage {
        var coverage = Coverage()
        for category in try reader.members("coverage") {
            for entry in try category.value.members() {
                coverage.add(category.key, entry.key, count: try entry.value.read([], as: Int.self))
            }
        }
        return coverage
    }
}
