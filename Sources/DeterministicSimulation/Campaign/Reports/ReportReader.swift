import SimulationFormats

/// Typed access to one parsed report by field path, through the same reader scenario files use
/// (``JSONValueReader``), so errors name the report and the path: `report 2: $.summary.runs: …`.
///
/// ```swift
/// let report = ReportReader(value: parsed, number: 2, name: "shard-2.json")
/// let runs = try report.int("summary", "runs", in: 0...Int.max)
/// ```
///
/// Contract: unknown keys are allowed (reports may grow); every mismatch is a
/// ``CampaignReportError`` converted from the reader's ``ConfigError``, naming the report by
/// its file (or `report N` when the caller gave no names).
struct ReportReader {
    /// 1-based position in the merge's argument list.
    let number: Int
    private let reader: JSONValueReader

    /// A reader of the `number`-th report, named `name` in errors (`report N` by default).
    init(value: JSONValue, number: Int, name: String? = nil) {
        self.init(JSONValueReader(value, file: name ?? "report \(number)"), number: number)
    }

    private init(_ reader: JSONValueReader, number: Int) {
        self.reader = reader
        self.number = number
    }

    /// How errors name the report: its file, or `report N`.
    var name: String { reader.file }

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

    /// The integer at `path`, within `range` (a count: `0...Int.max`); merge reads every number
    /// it adds up or sizes anything by this way, so tampered numbers are errors, never traps.
    func int(_ path: String..., in range: ClosedRange<Int>) throws(CampaignReportError) -> Int {
        do { return try reader.member(path: path).int(in: range) } catch { throw CampaignReportError(error) }
    }
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
        CampaignReportError(ConfigError(file: reader.file, path: jsonPath(path), problem: problem, fix: ""))
    }

    /// A value that contradicts another of the report (`failed` above `runs`, a digest that is
    /// not its parts'): the report was edited or damaged, so the fix is the unedited one.
    func inconsistent(_ path: String..., problem: String) -> CampaignReportError {
        CampaignReportError(problem: "\(reader.file): \(jsonPath(path)): \(problem)",
                            fix: "the report was edited or damaged; merge the reports as the campaign wrote them")
    }

    /// The JSON path of `keys` below this value, as the reader writes it (`$.a["odd key"]`).
    private func jsonPath(_ keys: [String]) -> String {
        (try? reader.member(path: keys).path) ?? ([reader.path] + keys).joined(separator: ".")
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
