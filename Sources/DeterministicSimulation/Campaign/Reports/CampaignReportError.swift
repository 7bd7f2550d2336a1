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

    func int(_ path: String...) throws(CampaignReportError) -> Int {
        guard let value = try value(path).intValue, let int = Int(exactly: value) else {
            throw .field(number, path.joined(separator: "."), "is not an integer")
        }
        return int
    }

    func int64(_ path: String...) throws(CampaignReportError) -> Int64 {
        guard let value = try value(path).intValue else {
            throw .field(number, path.joined(separator: "."), "is not an integer")
        }
        return value
    }

    func double(_ path: String...) throws(CampaignReportError) -> Double {
        guard let value = try value(path).doubleValue else {
            throw .field(number, path.joined(separator: "."), "is not a number")
        }
        return value
    }

    func bool(_ path: String...) throws(CampaignReportError) -> Bool {
        guard let value = try value(path).boolValue else {
            throw .field(number, path.joined(separator: "."), "is not true or false")
        }
        return value
    }

    func string(_ path: String...) throws(CampaignReportError) -> String {
        guard let value = try value(path).stringValue else {
            throw .field(number, path.joined(separator: "."), "is not a string")
        }
        return value
    }

    func object(_ path: String...) throws(CampaignReportError) -> JSONObject {
        guard let value = try value(path).objectValue else {
            throw .field(number, path.joined(separator: "."), "is not an object")
        }
        return value
    }

    func array(_ path: String...) throws(CampaignReportError) -> [JSONValue] {
        guard let value = try value(path).arrayValue else {
            throw .field(number, path.joined(separator: "."), "is not an array")
        }
        return value
    }

    func seed(_ key: String) throws(CampaignReportError) -> Seed {
        guard let seed = try? Seed(parsing: try string(key)) else {
            throw .field(number, key, "is not a seed (\"0x\" and 16 hex digits)")
        }
        return seed
    }

    func hex(_ path: String...) throws(CampaignReportError) -> UInt64 {
        guard let text = try value(path).stringValue, let digest = TraceDigest(parsing: text) else {
            throw .field(number, path.joined(separator: "."), "is not 16 hex digits")
        }
        return digest.value
    }
}
