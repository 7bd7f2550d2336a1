import DeterministicSimulation
import SimulationFormats

/// `bgsim merge` from Swift: joins the reports of a campaign's shards (`bgsim fuzz --shard K/N
/// --report`, or each shard's ``WorkloadReport/jsonText`` with ``WorkloadCampaign/shard``) into
/// the report one unsharded campaign gives, timing fields aside.
///
/// ```swift
/// let merged = try ReportMerge.merge([shard1.jsonText, shard2.jsonText])
/// try merged.write(toFile: "report.json", atomically: true, encoding: .utf8)
/// ```
///
/// Contract: the same checks and the same bytes as `bgsim merge`: every number is checked
/// against its report and shard, and anything inconsistent, or a text that is not a JSON report,
/// is a ``ReportMergeError`` naming the report (by `names`, else its position) and the field.
public enum ReportMerge {
    public static func merge(_ reports: [String], names: [String] = []) throws(ReportMergeError) -> String {
        try merge(bytes: reports.map { Array($0.utf8) }, names: names)
    }

    /// ``merge(_:names:)`` of the reports' bytes as read (bytes that are not UTF-8 are an error
    /// naming the report, as the JSON reader reports them).
    package static func merge(bytes reports: [[UInt8]], names: [String] = []) throws(ReportMergeError) -> String {
        var values: [JSONValue] = []
        for (index, bytes) in reports.enumerated() {
            do {
                values.append(try JSONParser().parse(bytes))
            } catch {
                let name = index < names.count ? names[index] : "report \(index + 1)"
                throw ReportMergeError(description: "\(name): not a JSON report: \(error.description)")
            }
        }
        do {
            return JSONWriter().string(for: try CampaignReport.merge(values, names: names))
        } catch {
            throw ReportMergeError(description: error.description)
        }
    }
}

/// Why shard reports could not be merged: one line naming the report and the field, and how to
/// fix it.
public struct ReportMergeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
}
