import BGSimCommands
import DeterministicSimulation
import SimulationFormats
import Foundation
import Testing

/// Issue 32, item 5: `bgsim merge` checks every number against its report and shard (exit 65,
/// one stderr line naming the file and the field, never a crash or a hang), and joins the
/// reports of a sharded exhaustive scenario (shards 2...N report that shard 1 searched).
@Suite struct MergeValidationTests {
    /// Shard reports 1/2 and 2/2 of the small P1 campaign, written by `fuzz --report`.
    static let shards: [JSONValue] = {
        let folder = TemporaryFolder()
        let scenario = folder.write("p1.json", CampaignCommandTests.smallP1)
        return (1...2).map { k in
            let path = folder.path + "/s\(k).json"
            _ = CLIRun(["fuzz", scenario, "--quiet", "--jobs", "1", "--no-failure-db", "--shard", "\(k)/2", "--report", path])
            return (try? CampaignCommandTests.parse(path)) ?? .null
        }
    }()

    /// `merge` of shard 1 and a shard 2 edited by `edit`, run as `bgsim merge` on files.
    static func mergeEdited(_ edit: (inout JSONObject) -> Void) -> (run: CLIRun, file: String) {
        let folder = TemporaryFolder()
        var second = shards[1].objectValue ?? JSONObject()
        edit(&second)
        let first = folder.write("s1.json", JSONWriter().string(for: shards[0]))
        let file = folder.write("s2.json", JSONWriter().string(for: .object(second)))
        return (CLIRun(["merge", first, file, "--report", folder.path + "/merged.json"]), file)
    }

    static func summaryEdit(_ key: String, _ value: JSONValue) -> (inout JSONObject) -> Void {
        { report in
            var summary = report["summary"]?.objectValue ?? JSONObject()
            summary[key] = value
            report["summary"] = .object(summary)
        }
    }

    @Test("tampered numbers are exit 65 with one line naming the file and field, never a crash", arguments: [
        ("runs", JSONValue.int(-1), "$.summary.runs: expected an integer of at least 0, found -1"),
        ("failed", .int(Int64.max), "$.summary.failed: expected an integer from 0 to 12"),
        ("passed", .int(1), "$.summary.failed: passed (1) + failed (12) is not runs (12)"),
        ("traceDigest", "0000000000000000", "$.summary.traceDigest: is 0000000000000000, but digestSum and digestCount give"),
        ("events", .int(Int64.max), "$.summary.events: is too large: the sum over the reports overflows"),
    ])
    func tamperedSummary(key: String, value: JSONValue, expected: String) throws {
        try #require(Self.shards.allSatisfy { $0 != .null }, "fuzz wrote both shard reports")
        let (run, file) = Self.mergeEdited(Self.summaryEdit(key, value))
        #expect(run.code == .dataError)
        #expect(run.errorLines.count == 1)
        #expect(run.stderr.hasPrefix("bgsim merge: \(file): \(expected)"), "\(run.stderr)")
    }

    @Test("a negative maxShrunkFailures and a shard count of 10^15 are exit 65 at once, not a trap or a loop")
    func negativeCapAndHugeShardCount() throws {
        try #require(Self.shards.allSatisfy { $0 != .null })
        let cap = Self.mergeEdited { report in
            var campaign = report["campaign"]?.objectValue ?? JSONObject()
            campaign["maxShrunkFailures"] = -1
            report["campaign"] = .object(campaign)
        }
        #expect(cap.run.code == .dataError)
        #expect(cap.run.stderr.contains("\(cap.file): $.campaign.maxShrunkFailures: expected an integer of at least 0"))
        let huge = Self.mergeEdited { report in
            var campaign = report["campaign"]?.objectValue ?? JSONObject()
            campaign["shard"] = ["index": 2, "count": 1_000_000_000_000_000]
            report["campaign"] = .object(campaign)
        }
        #expect(huge.run.code == .dataError)
        #expect(huge.run.stderr.contains("shard 2/1000000000000000 does not belong with"), "\(huge.run.stderr)")
    }

    @Test("a sharded exhaustive scenario: shards 2..N write a report without runs, and merge gives the unsharded report")
    func shardedExhaustiveSearchMerges() throws {
        let folder = TemporaryFolder()
        let file = PackageRoot.scenario("token-correct-ios17-exhaustive.json")
        let common = ["--quiet", "--jobs", "2", "--no-failure-db"]
        let whole = CLIRun(["fuzz", file, "--report", folder.path + "/whole.json"] + common)
        #expect(whole.code == .success, "\(whole.stderr)")
        var reports: [String] = []
        for k in 1...3 {
            let path = folder.path + "/s\(k).json"
            let run = CLIRun(["fuzz", file, "--shard", "\(k)/3", "--report", path] + common)
            #expect(run.code == .success, "shard \(k): \(run.stderr)")
            reports.append(path)
        }
        let second = try CampaignCommandTests.parse(reports[1])
        #expect(second["summary"]?["runs"] == 0 && second["failures"] == [])
        #expect(second["exhaustive"]?["searchedInShard"] == 1 && second["exhaustive"]?["sequences"] == 0)
        let schema = try CampaignCommandTests.parse(PackageRoot.path + "/Reports/report.schema.json")
        #expect(SchemaChecker(root: schema).problems(second) == [])
        let merge = CLIRun(["merge", reports[2], reports[0], reports[1], "--report", folder.path + "/merged.json"])
        #expect(merge.code == .success, "\(merge.stderr)")
        let merged = try CampaignCommandTests.parse(folder.path + "/merged.json")
        let expected = try CampaignCommandTests.parse(folder.path + "/whole.json")
        #expect(CampaignReport.timingFree(merged) == CampaignReport.timingFree(expected))
        #expect(merged["exhaustive"]?["sequences"] == 478)
        // Shard 1's report alone is not the whole campaign's: the other shards must be given.
        let alone = CLIRun(["merge", reports[0], "--report", folder.path + "/alone.json"])
        #expect(alone.code == .dataError && alone.stderr.contains("shards 2/3, 3/3 are missing"), "\(alone.stderr)")
    }
}

/// `merge --report` naming one of its inputs would overwrite it: refused before any work (73).
@Suite struct MergeOutputTests {
    @Test("merge refuses an output that is one of its input reports, and leaves the input as it was")
    func outputOverInput() throws {
        let folder = TemporaryFolder()
        let first = folder.write("s1.json", JSONWriter().string(for: MergeValidationTests.shards[0]))
        let second = folder.write("s2.json", JSONWriter().string(for: MergeValidationTests.shards[1]))
        let before = FileManager.default.contents(atPath: first)
        let run = CLIRun(["merge", first, second, "--report", folder.path + "/./s1.json"])
        #expect(run.code == .cannotCreate, "\(run.stderr)")
        #expect(run.stderr.contains("would overwrite the report"), "\(run.stderr)")
        #expect(FileManager.default.contents(atPath: first) == before)
    }
}
