import SimulationFormats

/// Typed access to one parsed report by field path, through the same reader scenario files use
/// (``JSONValueReader``), so errors name the report and the path: `report 2: $.summary.runs: …`.
///
/// ```swift
/// let report = ReportReader(value: parsed, number: 2)
/// let runs = try report.int("summary", "runs")
/// ```
///
/// Contract: unknown keys are allowed (reports may grow); every mismatch is a
/// ``CampaignReportError`` converted from the reader's ``ConfigError``.
struct ReportReader {
    /// 1-based position in the merge's argument list.
    let number: Int
    private let reader: JSONValueReader

    init(value: JSONValue, number: Int) {
        self.init(JSONValueReader(value, file: "report \(number)"), number: number)
    }

    private init(_ reader: JSONValueReader, number: Int) {
        self.reader = reader
        self.number = number
    }

    /// The raw value of this reader.
    var value: JSONValue { reader.value }

    /// The reader of the value at `path`.
    func member(_ path: String...) throws(CampaignReportError) -> ReportReader {
        do { return ReportReader(try reader.member(path: path), number: number) } catch { throw CampaignReportError(error) }
    }

    /// The value at `path` as `T`.
    func read<T: JSONReadable>(_ path: [String], as type: T.Type = T.self) throws(CampaignReportError) -> T {
        do { return try reader.member(path: path).read(as: T.self) } catch { throw CampaignReportError(error) }
    }

    func int(_ path: String...) throws(CampaignReportError) -> Int { try read(path) }
    func int64(_ path: String...) throws(CampaignReportError) -> Int64 { try read(path) }
    func double(_ path: String...) throws(CampaignReportError) -> Double { try read(path) }
    func bool(_ path: String...) throws(CampaignReportError) -> Bool { try read(path) }
    func string(_ path: String...) throws(CampaignReportError) -> String { try read(path) }

    /// The members of the object at `path`, in document order, each as a reader.
    func members(_ path: String...) throws(CampaignReportError) -> [(key: String, value: ReportReader)] {
        do {
            let object = try reader.member(path: path)
            return try object.object().object.members.map { member throws(ConfigError) in
                (member.key, ReportReader(try object.member(member.key), number: number))
            }
        } catch { throw CampaignReportError(error) }
    }

    /// The elements of the array at `path`, each as a reader.
    func elements(_ path: String...) throws(CampaignReportError) -> [ReportReader] {
        do {
            return try reader.member(path: path).array().map { ReportReader($0, number: number) }
        } catch { throw CampaignReportError(error) }
    }

    /// An error about the value at `path` below this one: `report N: $.path: problem`.
    func error(_ path: String..., problem: String) -> CampaignReportError {
        let at = path.isEmpty ? reader.path : reader.path + "." + path.joined(separator: ".")
        return CampaignReportError(ConfigError(file: reader.file, path: at, problem: problem, fix: ""))
    }

    func seed(_ key: String) throws(CampaignReportError) -> Seed {
        guard let seed = try? Seed(parsing: try string(key)) else {
            throw error(key, problem: "expected a seed (\"0x\" and 16 hex digits)")
        }
        return seed
    }

    func hex(_ path: String...) throws(CampaignReportError) -> UInt64 {
        guard let value = TraceDigest(parsing: try read(path, as: String.self))?.value else {
            throw error(path.joined(separator: "."), problem: "expected 16 hex digits")
        }
        return value
    }
}
