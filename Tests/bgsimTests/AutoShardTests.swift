import BGSimCommands
import DeterministicSimulation
import SimulationFormats
import Foundation
import Testing

/// Issue 18 part 4: `--shard auto` reads the shard from BGSIM_SHARD or the CI system's variables,
/// and the shards it picks merge into the unsharded report.
@Suite struct AutoShardTests {
    /// Every source, with the environment of shard K (from 1) of N as that system sets it.
    static let systems: [(name: String, environment: @Sendable (Int, Int) -> [String: String])] = [
        ("BGSIM_SHARD", { k, n in ["BGSIM_SHARD": "\(k)/\(n)"] }),
        ("GitLab CI", { k, n in ["CI_NODE_INDEX": "\(k)", "CI_NODE_TOTAL": "\(n)"] }),
        ("Buildkite", { k, n in ["BUILDKITE_PARALLEL_JOB": "\(k - 1)", "BUILDKITE_PARALLEL_JOB_COUNT": "\(n)"] }),
        ("CircleCI", { k, n in ["CIRCLE_NODE_INDEX": "\(k - 1)", "CIRCLE_NODE_TOTAL": "\(n)"] }),
        ("a Kubernetes Indexed Job", { k, n in ["JOB_COMPLETION_INDEX": "\(k - 1)", "BGSIM_SHARD_COUNT": "\(n)"] }),
    ]

    static func report(_ path: String) throws -> JSONValue {
        try JSONParser().parse(Array(try #require(FileManager.default.contents(atPath: path))))
    }

    @Test("each system's shards, merged, give the unsharded report (timing aside)", arguments: 0..<5)
    func mergedAutoShardsEqualTheWholeCampaign(system: Int) throws {
        let (name, environment) = Self.systems[system]
        let folder = TemporaryFolder()
        let scenario = folder.write("p1.json", CampaignCommandTests.smallP1)
        let whole = CLIRun(["fuzz", scenario, "--quiet", "--jobs", "2", "--report", folder.path + "/whole.json"])
        #expect(whole.code == .success)
        let count = 3
        var reports: [String] = []
        for k in 1...count {
            let path = folder.path + "/shard-\(k).json"
            let run = CLIRun(["fuzz", scenario, "--shard", "auto", "--quiet", "--jobs", "1", "--report", path],
                             environment: environment(k, count))
            #expect(run.code == .success, "\(name) shard \(k): \(run.stderr)")
            #expect(run.stdout.hasPrefix("seed 0x0000000000000001  p1-small"))
            #expect(run.stdout.contains(", shard \(k)/\(count) from \(name)"), "\(run.stdout.prefix(200))")
            reports.append(path)
        }
        let merge = CLIRun(["merge"] + reports.reversed() + ["--report", folder.path + "/merged.json"])
        #expect(merge.code == .success, "\(merge.stderr)")
        let merged = CampaignReport.timingFree(try Self.report(folder.path + "/merged.json"))
        let expected = CampaignReport.timingFree(try Self.report(folder.path + "/whole.json"))
        #expect(merged == expected, "\(name): the merged report differs from the unsharded one")
    }

    @Test("BGSIM_SHARD wins over the CI system's variables; GitLab's lone CI_NODE_TOTAL=1 is no shard")
    func precedence() {
        let both = CLIRun(["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--runs", "4", "--shard", "auto",
                           "--quiet"], environment: ["BGSIM_SHARD": "2/2", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"])
        #expect(both.code == .success)
        #expect(both.stdout.contains(", shard 2/2 from BGSIM_SHARD=2/2"))
        let lone = CLIRun(["fuzz", "--shard", "auto"], environment: ["CI_NODE_TOTAL": "1"])
        #expect(lone.code == .usage && lone.stderr.contains("no shard in the environment"))
    }

    @Test("--shard auto without a shard, or with a bad one, is a usage error (64) naming the variable", arguments: [
        ([:], "bgsim fuzz: --shard auto: no shard in the environment; set BGSIM_SHARD=K/N, or run as a GitLab parallel job"),
        (["BGSIM_SHARD": "3/2"], "bgsim fuzz: --shard auto: BGSIM_SHARD: \"3/2\" is not a shard: K must be between 1 and N"),
        (["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "2"],
         "bgsim fuzz: --shard auto: CI_NODE_INDEX=0 is out of range for CI_NODE_TOTAL=2 (GitLab CI counts from 1: 1 to 2)"),
        (["CIRCLE_NODE_INDEX": "2", "CIRCLE_NODE_TOTAL": "2"],
         "bgsim fuzz: --shard auto: CIRCLE_NODE_INDEX=2 is out of range for CIRCLE_NODE_TOTAL=2 (CircleCI counts from 0: 0 to 1)"),
        (["BUILDKITE_PARALLEL_JOB": "x", "BUILDKITE_PARALLEL_JOB_COUNT": "2"],
         "bgsim fuzz: --shard auto: BUILDKITE_PARALLEL_JOB=x is not a whole number"),
        (["JOB_COMPLETION_INDEX": "1"],
         "bgsim fuzz: --shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but BGSIM_SHARD_COUNT is not; "
            + "set BGSIM_SHARD_COUNT to the Job's completions"),
    ])
    func badEnvironment(environment: [String: String], message: String) {
        let run = CLIRun(["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--shard", "auto"],
                         environment: environment)
        #expect(run.code == .usage)
        #expect(run.stdout.isEmpty, "nothing ran")
        #expect(run.errorLines.count == 1)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("Run 'bgsim help fuzz' for usage.\n"))
    }
}
