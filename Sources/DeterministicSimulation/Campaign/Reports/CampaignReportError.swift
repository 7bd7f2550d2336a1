/// Why reports cannot be merged (or read): one line naming the report and the field.
///
/// ```swift
/// do { _ = try CampaignReport.merge([a, b]) } catch { print(error) }
/// // report 2 (shard 2/3): its seed 0x…02 differs from report 1's 0x…01; merge shards of one campaign
/// ```
public struct CampaignReportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, already naming the report (1-based, in argument order) and field.
    public var problem: String
    /// How to fix it.
    public var fix: String

    public init(problem: String, fix: String) {
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "\(problem); \(fix)" }

    static func field(_ report: Int, _ path: String, _ what: String) -> CampaignReportError {
        CampaignReportError(problem: "report \(report): \(path) \(what)",
                            fix: "give reports written by 'bgsim fuzz --report' (schemaVersion 1)")
    }
}

/// Typed access to one parsed report, with errors that name the report and the field path.
struct ReportReader {
    let value: JSONValue
    /// 1-based position in the merge's argument list.
    let number: Int

    func value(_ path: [String]) throws(CampaignReportError) -> JSONValue {
        var current = value
        for key in path {
            guard let next = current[key] else {
                throw .field(number, path.joined(separator: "."), "is missing")
            }
            current = next
        }
        return current
    }

    /// The value at `path`, converted; an error saying it "is not <what>" when it does not convert.
    private func read<T>(_ path: [String], _ what: String, _ convert: (JSONValue) -> T?) throws(CampaignReportError) -> T {
        guard let converted = convert(try value(path)) else {
            throw .field(number, path.joined(separator: "."), "is not \(what)")
        }
        return converted
    }

    func int(_ path: String...) throws(CampaignReportError) -> Int {
        try read(path, "an integer") { $0.intValue.flatMap { Int(exactly: $0) } }
    }

    func int64(_ path: String...) throws(CampaignReportError) -> Int64 { try read(path, "an integer", \.intValue) }
    func double(_ path: String...) throws(CampaignReportError) -> Double { try read(path, "a number", \.doubleValue) }
    func bool(_ path: String...) throws(CampaignReportError) -> Bool { try read(path, "true or false", \.boolValue) }
    func string(_ path: String...) throws(CampaignReportError) -> String { try read(path, "a string", \.stringValue) }
    func object(_ path: String...) throws(CampaignReportError) -> JSONObject { try read(path, "an object", \.objectValue) }
    func array(_ path: String...) throws(CampaignReportError) -> [JSONValue] { try read(path, "an array", \.arrayValue) }

    func seed(_ key: String) throws(CampaignReportError) -> Seed {
        guard let seed = try? Seed(parsing: try string(key)) else {
            throw .field(number, key, "is not a seed (\"0x\" and 16 hex digits)")
        }
        return seed
    }

    func hex(_ path: String...) throws(CampaignReportError) -> UInt64 {
        try read(path, "16 hex digits") { $0.stringValue.flatMap(TraceDigest.init(parsing:))?.value }
    }
}
