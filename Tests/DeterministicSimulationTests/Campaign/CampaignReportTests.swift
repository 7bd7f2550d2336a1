import DeterministicSimulation
import SimulationFormats
import Testing

@Suite("Campaign reports")
struct CampaignReportTests {
    static let options = CampaignOptions(seed: Seed(0x5eed), runs: 200, jobs: 2)

    static func report(_ options: CampaignOptions) -> JSONValue {
        let result = Campaign.run(ThresholdTarget(), options: options)
        return CampaignReport.json(result, scenarioName: "toy", scenarioFile: "Scenarios/toy.json", toolVersion: "9.9", toolName: "bgsim",
                                   replayCommand: { "bgsim replay Scenarios/toy.json --seed \($0.seed)" })
    }


    @Test("the report has the contract's shape: version, seed first, then tool, scenario, campaign, summary")
    func goldenShape() throws {
        let report = Self.report(Self.options)
        let object = try #require(report.objectValue)
        #expect(object.keys == ["schemaVersion", "seed", "tool", "scenario", "campaign", "summary", "coverage",
                                "failures", "nondeterminism"])
        #expect(report["seed"] == "0x0000000000005eed")
        #expect(report["tool"] == ["name": "bgsim", "version": "9.9"])
        #expect(report["campaign"]?["shard"] == ["index": 1, "count": 1])
        let summary = try #require(report["summary"]?.objectValue)
        #expect(summary.keys == ["runs", "passed", "failed", "violations", "firstViolationRuns", "events",
                                 "simulatedSeconds", "simulatedMicroseconds", "wallSeconds", "runSeconds", "runsPerSecond",
                                 "eventsPerSecond", "traceDigest", "digestSum", "digestCount", "stepLimitRuns",
                                 "interrupted"])
        #expect(summary["runs"] == 200)
        #expect(summary["traceDigest"]?.stringValue?.utf8.count == 16)
        let failure = try #require(report["failures"]?[0]?.objectValue)
        #expect(failure.keys == ["runIndex", "seed", "invariant", "message", "time", "replay", "choices",
                                 "originalEventCount", "shrunkEventCount", "originalActionCount", "shrunkActionCount",
                                 "shrunkMessage", "shrink", "trace"])
        #expect(failure["replay"]?.stringValue?.hasPrefix("bgsim replay Scenarios/toy.json --seed 0x") == true)
        #expect(failure["choices"]?.stringValue?.hasPrefix("c1.") == true)
        let line = try #require(failure["trace"]?[0]?.objectValue)
        #expect(line.keys == ["t", "event", "v"])
        #expect(line["t"] == .double(0))
    }

    @Test("jobs 1 and 3 give the same report, timing aside")
    func jobsInvariantReport() {
        var options = Self.options
        options.jobs = 1
        let one = Self.report(options)
        options.jobs = 3
        #expect(CampaignReport.timingFree(Self.report(options)) == CampaignReport.timingFree(one))
    }

    @Test("shards 1/3, 2/3, 3/3 merged equal the unsharded report, timing aside", arguments: [[1, 2, 3], [3, 1, 2]])
    func mergeEqualsWhole(order: [Int]) throws {
        let whole = Self.report(Self.options)
        let shards = order.map { index -> JSONValue in
            var options = Self.options
            options.shard = Shard(index: index, count: 3)
            return Self.report(options)
        }
        let merged = try CampaignReport.merge(shards)
        #expect(CampaignReport.timingFree(merged) == CampaignReport.timingFree(whole))
        #expect(merged["summary"]?["traceDigest"] == whole["summary"]?["traceDigest"])
        #expect(shards.allSatisfy { $0["summary"]?["traceDigest"] != whole["summary"]?["traceDigest"] })
    }

    @Test("merge explains what is wrong", arguments: [
        ("no reports", [] as [Int], "no reports"),
        ("duplicate", [1, 1, 2], "is given twice"),
        ("missing", [1, 3], "2/3 are missing"),
    ])
    func mergeShardErrors(label: String, shards: [Int], expected: String) {
        let reports = shards.map { index -> JSONValue in
            var options = Self.options
            options.runs = 20
            options.shard = Shard(index: index, count: 3)
            return Self.report(options)
        }
        #expect(throws: CampaignReportError.self, "\(label)") { try CampaignReport.merge(reports) }
        do {
            _ = try CampaignReport.merge(reports)
        } catch {
            #expect(error.description.contains(expected), "\(label): \(error)")
        }
    }

    @Test("merge refuses reports of different campaigns or versions")
    func mergeMismatch() throws {
        var options = Self.options
        options.runs = 20
        options.shard = Shard(index: 1, count: 2)
        let first = Self.report(options)
        options.shard = Shard(index: 2, count: 2)
        var other = options
        other.seed = Seed(7)
        let wrongSeed = Self.report(other)
        #expect(Self.mergeError([first, wrongSeed]).contains("report 2: seed is 0x0000000000000007"))
        var object = try #require(Self.report(options).objectValue)
        object["schemaVersion"] = 2
        #expect(Self.mergeError([first, .object(object)]).contains("schemaVersion is 2"))
        object["schemaVersion"] = 1
        object["summary"] = nil
        // Reports are read by the scenario files' reader: errors name the report and the JSON path.
        #expect(Self.mergeError([first, .object(object)]).contains("report 2: $.summary: missing required key 'summary'"))
        object["summary"] = ["runs": "many"]
        #expect(Self.mergeError([first, .object(object)]).contains("report 2: $.summary.runs: expected an integer of at least 0, found \"many\""))
        #expect(Self.mergeError([first, "not a report"]).contains("report 2: $: expected an object, found \"not a report\""))
    }

    /// The error `merge` throws for `reports`, as text (`"no error"` when it merges).
    static func mergeError(_ reports: [JSONValue]) -> String {
        do {
            _ = try CampaignReport.merge(reports)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test("JUnit: one case per scenario named after its expectation, passing exactly when it was met")
    func junit() {
        let result = Campaign.run(ThresholdTarget(), options: Self.options)
        func entries(_ result: CampaignResult) -> [JUnitReport.Entry] {
            [(CampaignExpectation.violation("big-value"), "planted"), (.violation("never-seen"), "lost"),
             (.pass, "correct")].map { expectation, name in
                JUnitReport.Entry(scenario: name, expectation: expectation, invariants: ["big-value", "never-seen"],
                                  result: result, replayCommand: { "bgsim replay toy.json --seed \($0.seed)" },
                                  shrunkReplayCommand: { "bgsim replay toy.json --choices \($0.choices.token)" })
            }
        }
        let xml = JUnitReport.xml(entries(result), toolName: "bgsim")
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bgsim\" tests=\"3\" failures=\"2\">"))
        // The planted bug found as expected passes, with what was found in system-out.
        #expect(xml.contains("<testcase classname=\"planted\" name=\"expect violation big-value\">\n      <system-out>"
            + "expect violation big-value: found big-value as expected"))
        // A planted bug not found, and a violation where none was expected, fail.
        #expect(xml.contains("<testcase classname=\"lost\" name=\"expect violation never-seen\">\n      "
            + "<failure message=\"the planted bug was not found: no never-seen violation"))
        #expect(xml.contains("<testcase classname=\"correct\" name=\"expect pass\">\n      "
            + "<failure message=\"expected no violation, but found big-value in "))
        #expect(xml.contains("replay: bgsim replay toy.json --seed 0x"))
        #expect(xml.contains("held: never-seen"))
        var options = Self.options
        options.jobs = 1
        #expect(JUnitReport.xml(entries(Campaign.run(ThresholdTarget(), options: options)), toolName: "bgsim") == xml)
    }
}
