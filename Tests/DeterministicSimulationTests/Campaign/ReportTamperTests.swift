import DeterministicSimulation
import SimulationFormats
import Testing

/// Issue 32, item 5: `merge` validates every number of the reports it joins. Tampered numbers
/// (overflowing, negative, huge, inconsistent) are a ``CampaignReportError`` naming the report
/// and the field, or merge into a report that is itself valid: never a trap, never a hang.
@Suite struct ReportTamperTests {
    /// Shards 1/2 and 2/2 of a 40-run campaign of the toy target (which fails two invariants).
    static let pair: [JSONValue] = [1, 2].map { index in
        var options = CampaignOptions(seed: Seed(0x5eed), runs: 40, jobs: 1)
        options.shard = Shard(index: index, count: 2)
        return CampaignReportTests.report(options)
    }

    /// One step into a report: a member or an element.
    enum Step: CustomStringConvertible {
        case key(String)
        case index(Int)

        var description: String {
            switch self {
            case .key(let key): ".\(key)"
            case .index(let index): "[\(index)]"
            }
        }
    }

    /// The paths of every number in `value`, in document order.
    static func numberPaths(_ value: JSONValue, at path: [Step] = []) -> [[Step]] {
        switch value {
        case .int, .double: [path]
        case .object(let object): object.members.flatMap { numberPaths($0.value, at: path + [.key($0.key)]) }
        case .array(let elements): elements.indices.flatMap { numberPaths(elements[$0], at: path + [.index($0)]) }
        default: []
        }
    }

    /// `value` with the value at `path` replaced by `new`.
    static func replacing(_ value: JSONValue, at path: ArraySlice<Step>, with new: JSONValue) -> JSONValue {
        guard let step = path.first else { return new }
        switch (value, step) {
        case (.object(var object), .key(let key)):
            object[key] = replacing(object[key] ?? .null, at: path.dropFirst(), with: new)
            return .object(object)
        case (.array(var elements), .index(let index)):
            elements[index] = replacing(elements[index], at: path.dropFirst(), with: new)
            return .array(elements)
        default:
            return value
        }
    }

    /// What a tamperer writes in place of a number `old`.
    static func tampered(_ old: JSONValue) -> [JSONValue] {
        let integer = old.intValue ?? 0
        return [.int(.max), .int(.min), .int(-1), .int(1 << 62), .int(integer &+ 1), .int(integer &- 1), .int(0),
                .double(1e300), .double(-0.5), "12"]
    }

    @Test("every number of either shard report, tampered, is an error naming the report and field, or a valid merge")
    func tamperFuzz() throws {
        let untampered = try CampaignReport.merge(Self.pair)
        var errors = 0, merges = 0
        for shard in Self.pair.indices {
            for path in Self.numberPaths(Self.pair[shard]) {
                let old = try #require(Self.pair[shard][path])
                for new in Self.tampered(old) {
                    var reports = Self.pair
                    reports[shard] = Self.replacing(reports[shard], at: path[...], with: new)
                    let label = "report \(shard + 1): $\(path.map(\.description).joined()) = \(new)"
                    do {
                        let merged = try CampaignReport.merge(reports)
                        merges += 1
                        #expect(!Self.isCount(path) || (new.doubleValue ?? 0) >= 0, "\(label): a negative count merged")
                        // A merge that went through is itself a valid report of the whole campaign.
                        #expect(throws: Never.self, "\(label)") { _ = try CampaignReport.merge([merged]) }
                        #expect(merged["campaign"]?["runs"] == untampered["campaign"]?["runs"], "\(label)")
                    } catch {
                        errors += 1
                        #expect(error.description.contains("report ") || error.description.contains("are missing"),
                                "\(label): \(error)")
                        #expect(!error.description.contains("\n"), "\(label): one line")
                    }
                }
            }
        }
        #expect(errors > 400, "\(errors) refused")
        #expect(merges > 1_000, "\(merges) merged (numbers merge carries as written: traces, shrink statistics)")
    }

    /// Whether merge reads the number at `path` as a count or a time (not a derived field it
    /// recomputes, nor a number of a failure record it carries as written).
    static func isCount(_ path: [Step]) -> Bool {
        guard case .key(let top) = path.first, case .key(let last) = path.last else { return false }
        return ["summary", "campaign", "coverage"].contains(top)
            && !["simulatedSeconds", "runsPerSecond", "eventsPerSecond"].contains(last)
    }

    @Test("inconsistent numbers are refused, naming the field", arguments: [
        ("negative runs", "summary.runs", JSONValue.int(-1), "report 2: $.summary.runs: expected an integer of at least 0"),
        ("failed above runs", "summary.failed", .int(21), "report 2: $.summary.failed: expected an integer from 0 to 20"),
        ("passed + failed != runs", "summary.passed", .int(0), "report 2: $.summary.failed: passed (0) + failed"),
        ("a digest that is not its parts'", "summary.traceDigest", "0123456789abcdef", "report 2: $.summary.traceDigest"),
        ("digestCount not runs", "summary.digestCount", "0000000000000015", "report 2: $.summary.digestCount"),
        ("step-limit runs above runs", "summary.stepLimitRuns", .int(21), "report 2: $.summary.stepLimitRuns"),
        ("negative maxShrunkFailures", "campaign.maxShrunkFailures", .int(-1), "report 2: $.campaign.maxShrunkFailures"),
        ("negative jobs", "campaign.jobs", .int(-3), "report 2: $.campaign.jobs"),
        ("negative wall time", "summary.wallSeconds", .double(-1), "report 2: $.summary.wallSeconds: is -1.0, below 0"),
        ("a run of the other shard", "summary.firstViolationRuns.big-value", .int(0),
         "report 2: $.summary.firstViolationRuns[\"big-value\"]: run 0 is not a run of shard 2/2"),
        ("a failure's run of the other shard", "failures[0].runIndex", .int(0), "report 2: $.failures[0].runIndex"),
        ("a violation count above failed", "summary.violations.big-value", .int(21),
         "report 2: $.summary.violations[\"big-value\"]: expected an integer from 1 to"),
        ("a negative coverage count", "coverage.sizes.small", .int(-1), "report 2: $.coverage.sizes.small"),
    ])
    func inconsistentNumbers(label: String, field: String, value: JSONValue, expected: String) throws {
        var path: [Step] = []
        for part in field.split(separator: ".") {
            if let bracket = part.firstIndex(of: "[") {
                path.append(.key(String(part[..<bracket])))
                path.append(.index(Int(part[part.index(after: bracket)...].dropLast())!))
            } else {
                path.append(.key(String(part)))
            }
        }
        #expect(Self.pair[1][path] != nil, "\(label): the field exists")
        let tampered = [Self.pair[0], Self.replacing(Self.pair[1], at: path[...], with: value)]
        #expect(CampaignReportTests.mergeError(tampered).contains(expected), "\(label): \(CampaignReportTests.mergeError(tampered))")
    }

    @Test("sums that overflow are errors, not traps: events, simulated time, jobs, coverage")
    func overflowingSums() {
        for field in ["events", "simulatedMicroseconds"] {
            let reports = Self.pair.map { Self.replacing($0, at: [.key("summary"), .key(field)], with: .int(.max)) }
            #expect(CampaignReportTests.mergeError(reports).contains("report 2: $.summary.\(field): is too large"))
        }
        let jobs = Self.pair.map { Self.replacing($0, at: [.key("campaign"), .key("jobs")], with: .int(.max)) }
        #expect(CampaignReportTests.mergeError(jobs).contains("report 2: $.campaign.jobs: is too large"))
        let coverage = Self.pair.map { Self.replacing($0, at: [.key("coverage"), .key("values"), .key("total")], with: .int(.max)) }
        #expect(CampaignReportTests.mergeError(coverage).contains("report 2: $.coverage.values.total: is too large"))
    }

    @Test("a huge shard count is refused at once, naming the first missing shards; never a loop over N")
    func hugeShardCount() {
        let reports = Self.pair.map { Self.replacing($0, at: [.key("campaign"), .key("shard"), .key("count")],
                                                      with: .int(1_000_000_000_000_000)) }
        let error = CampaignReportTests.mergeError(reports)
        #expect(error.contains("shards 3/1000000000000000, 4/1000000000000000, 5/1000000000000000, "
            + "6/1000000000000000, 7/1000000000000000 and 999999999999993 more are missing"), "\(error)")
    }
}

extension JSONValue {
    /// The value at `path`.
    subscript(path: [ReportTamperTests.Step]) -> JSONValue? {
        var value: JSONValue? = self
        for step in path {
            switch step {
            case .key(let key): value = value?[key]
            case .index(let index): value = value?[index]
            }
        }
        return value
    }
}
