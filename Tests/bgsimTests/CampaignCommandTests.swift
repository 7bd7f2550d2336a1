import BGSimCommands
import DeterministicSimulation
import SimulationFormats
import Foundation
import Testing

/// `fuzz`, `merge` and the report, end to end through the command line (in process).
@Suite("bgsim fuzz and merge")
struct CampaignCommandTests {
    /// P1 with a short horizon, so the whole campaign (shrinking included) takes seconds in a
    /// debug build.
    static let smallP1 = """
        {
          "name": "p1-small",
          "workload": "download-manager",
          "variant": "p1-overwritten-task-id",
          "profile": "ios17",
          "campaign": {"runs": 24, "seed": "0x1", "horizonSeconds": 120},
          "expect": {"violation": "every-begin-ended"}
        }
        """

    static func parse(_ path: String) throws -> JSONValue {
        try JSONParser().parse(Array(try #require(FileManager.default.contents(atPath: path))))
    }


    @Test("fuzz finds the planted P1 bug as expected, exits 0 and prints a replay command that reproduces it")
    func fuzzFindsP1() throws {
        let folder = TemporaryFolder()
        let scenario = folder.write("p1.json", Self.smallP1)
        let run = CLIRun(["fuzz", scenario, "--jobs", "2", "--quiet"])
        #expect(run.code == .success, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasPrefix("seed 0x0000000000000001  p1-small"))
        #expect(run.stdout.contains("FOUND every-begin-ended in "))
        #expect(run.stdout.contains("  expectation met (expect violation every-begin-ended): found every-begin-ended as expected"))
        #expect(run.stdout.hasSuffix("1 of 1 scenario met its expectation (1 planted bug found as expected, "
            + "0 held every invariant)\n"))
        let line = try #require(run.stdout.split(separator: "\n").first { $0.contains("replay: bgsim replay") })
        let command = line.split(separator: " ").drop { $0 != "bgsim" }.dropFirst().map(String.init)
        #expect(command.first == "replay" && command.contains("--seed"))
        let replay = CLIRun(command)
        #expect(replay.code == .violation)
        #expect(replay.stdout.contains("VIOLATION every-begin-ended") || replay.stdout.contains("VIOLATION expiry-ends-task"))
    }

    @Test("--jobs 1 and --jobs 2 give the same report, timing aside; the report meets its schema")
    func jobsSameDigest() throws {
        let folder = TemporaryFolder()
        let scenario = folder.write("p1.json", Self.smallP1)
        let one = CLIRun(["fuzz", scenario, "--jobs", "1", "--quiet", "--report", folder.path + "/one.json"])
        let two = CLIRun(["fuzz", scenario, "--jobs", "2", "--quiet", "--report", folder.path + "/two.json"])
        #expect(one.code == .success && two.code == .success)
        let a = try Self.parse(folder.path + "/one.json")
        let b = try Self.parse(folder.path + "/two.json")
        #expect(a["summary"]?["traceDigest"] == b["summary"]?["traceDigest"])
        #expect(CampaignReport.timingFree(a) == CampaignReport.timingFree(b))

        let schema = try Self.parse(PackageRoot.path + "/Reports/report.schema.json")
        #expect(SchemaChecker(root: schema).problems(a) == [])
        var broken = try #require(a.objectValue)
        broken["seed"] = 42
        broken["summary"] = ["runs": 1]
        let problems = SchemaChecker(root: schema).problems(.object(broken))
        #expect(problems.contains("$.seed: 42 is not of type \"string\""))
        #expect(problems.contains("$.summary: missing required field traceDigest"))
    }

    @Test("merge of two shard reports equals the unsharded report's summary, digest and failures")
    func mergeShards() throws {
        let folder = TemporaryFolder()
        let scenario = folder.write("p1.json", Self.smallP1)
        let whole = CLIRun(["fuzz", scenario, "--quiet", "--report", folder.path + "/whole.json"])
        let s1 = CLIRun(["fuzz", scenario, "--quiet", "--shard", "1/2", "--report", folder.path + "/s1.json"])
        let s2 = CLIRun(["fuzz", scenario, "--quiet", "--shard", "2/2", "--report", folder.path + "/s2.json"])
        #expect([whole.code, s1.code, s2.code] == [.success, .success, .success])
        let merge = CLIRun(["merge", folder.path + "/s2.json", folder.path + "/s1.json",
                            "--report", folder.path + "/merged.json"])
        #expect(merge.code == .success, "the merged campaign found its planted bug: \(merge.stderr)")
        #expect(merge.stdout.contains("expect violation every-begin-ended: found every-begin-ended as expected"))
        let expected = try Self.parse(folder.path + "/whole.json")
        let merged = try Self.parse(folder.path + "/merged.json")
        #expect(merge.stdout.contains("digest \(expected["summary"]?["traceDigest"]?.stringValue ?? "?")"))
        #expect(CampaignReport.timingFree(merged)["summary"] == CampaignReport.timingFree(expected)["summary"])
        #expect(merged["failures"] == expected["failures"])
        #expect(merged["coverage"] == expected["coverage"])

        let missing = CLIRun(["merge", folder.path + "/s1.json", "--report", folder.path + "/bad.json"])
        #expect(missing.code == .dataError)
        #expect(missing.errorLines.count == 1 && missing.stderr.contains("shards 2/2 are missing"))
    }
}
