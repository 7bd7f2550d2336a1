import BGSimCommands
import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import SimulationFormats
import Testing

/// `--strategy exhaustive` (issue 20): the bounded exhaustive search over the token workload
/// counts its states, finds a planted bug whose printed replay reproduces it in a new process,
/// gives the same report for every `--jobs`, and refuses bad options with exit 64.
@Suite struct ExhaustiveSearchTests {
    static func token(_ variant: String = "correct") throws -> Scenario {
        try ScenarioLoader.load(file: PackageRoot.scenario("token-\(variant)-ios17.json"))
    }

    static func search(_ scenario: Scenario, depth: Int, deduplicates: Bool = true) throws -> ExhaustiveStats {
        var spec = scenario.runSpec
        spec.exploration = .exhaustive
        let result = ExhaustiveSearch.run(SimulationTarget(spec: spec),
                                          options: ExhaustiveOptions(depth: depth, jobs: 2, deduplicates: deduplicates),
                                          campaign: CampaignOptions(seed: scenario.campaign.seed, runs: 0, jobs: 2))
        #expect(result.failures.isEmpty, "\(result.failures.map(\.failure.message))")
        return try #require(result.exhaustive)
    }

    @Test("exhaustive search of the correct token workload to depth 1 runs 11 sequences through 8 states")
    func tokenDepthOne() throws {
        let stats = try Self.search(try Self.token(), depth: 1)
        // 1 run stops after the launch; 3 deviate at one of its 3 scheduling choices (one in the
        // launch, two in the settle phase), each costing the one unit of depth; 7 take one action
        // (an active app offers home, lock, app switcher, incoming call, network down, Background
        // App Refresh off, power connected) and stop. States: the launched app, and the app after
        // each of the 7 actions, all different; the launch's scheduling deviation reaches the
        // launched state again (its two jobs commute) with less depth left: 1 pruned branch.
        #expect(stats.sequences == 11)
        #expect(stats.distinctStates == 8)
        #expect(stats.prunedBranches == 1)
        #expect(stats.depthReached == 1)
    }

    @Test("exhaustive search of the correct token workload to depth 2 finds no failure; deduplication cuts branches")
    func tokenDepthTwoDeduplicates() throws {
        let scenario = try Self.token()
        let stats = try Self.search(scenario, depth: 2)
        let full = try Self.search(scenario, depth: 2, deduplicates: false)
        // Pinned (a change to the state hash, the branch points or the workload moves them):
        // two actions or an action and a scheduling deviation; the same state reached again with
        // no more depth left (home then open, after open alone; network down then up, ...) is cut.
        #expect(stats.sequences == 86)
        #expect(stats.distinctStates == 45)
        #expect(stats.prunedBranches == 18)
        #expect(full.prunedBranches == 0)
        #expect(full.sequences > stats.sequences, "deduplication must cut the states seen again")
    }

    @Test("exhaustive search finds a planted double end, and its printed replay reproduces it in a new process")
    func plantedBugReplaysInANewProcess() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ReplayInNewProcessTests.executable.path),
                     "build bgsim first: swift build --build-tests")
        let fuzz = CLIRun(["fuzz", PackageRoot.scenario("backup-p4-unconditional-end-ios17.json"), "--strategy", "exhaustive",
                           "--depth", "2", "--jobs", "2", "--quiet", "--no-failure-db"])
        #expect(fuzz.code == .success, "the planted bug is found as expected: \(fuzz.stdout)")
        #expect(fuzz.stdout.contains("exhaustive to depth 2:"))
        #expect(fuzz.stdout.contains("FOUND no-double-end"))
        let arguments = try #require(ReplayInNewProcessTests.printedReplay(fuzz.stdout, marker: "replay: bgsim replay"),
                                     "\(fuzz.stdout)")
        #expect(arguments.contains("--choices") && arguments.suffix(2) == ["--strategy", "exhaustive"], "\(arguments)")
        let inProcess = CLIRun(arguments)
        let child = try ReplayInNewProcessTests.runProcess(arguments)
        #expect(inProcess.code == .violation)
        #expect(child.code == ExitCode.violation.rawValue, "\(arguments)")
        let digest = try #require(ReplayInNewProcessTests.digestLine(inProcess.stdout))
        #expect(ReplayInNewProcessTests.digestLine(child.stdout) == digest)
        #expect(child.stdout.contains("VIOLATION no-double-end"))
    }

    @Test("--jobs 1 and --jobs 2 give the same exhaustive report, timing aside; it meets the schema")
    func jobsDoNotChangeTheReport() throws {
        let folder = TemporaryFolder()
        var reports: [JSONValue] = []
        for jobs in ["1", "2"] {
            let path = folder.path + "/jobs\(jobs).json"
            let run = CLIRun(["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--strategy", "exhaustive",
                              "--depth", "2", "--jobs", jobs, "--quiet", "--no-failure-db", "--report", path])
            #expect(run.code == .success, "\(run.stderr)")
            reports.append(try JSONParser().parse(Array(try #require(FileManager.default.contents(atPath: path)))))
        }
        #expect(CampaignReport.timingFree(reports[0]) == CampaignReport.timingFree(reports[1]))
        #expect(reports[0]["exhaustive"]?["distinctStates"] == .int(45))
        let schema = try JSONParser().parse(Array(try #require(
            FileManager.default.contents(atPath: PackageRoot.path + "/Reports/report.schema.json"))))
        #expect(SchemaChecker(root: schema).problems(reports[0]) == [])
    }

    @Test("bad --depth, --depth without exhaustive, --runs or --shard with exhaustive: exit 64 with the fix",
          arguments: [
            (["--strategy", "exhaustive", "--depth", "0"], "--depth takes a whole number from 1 to 12, not '0'"),
            (["--strategy", "exhaustive", "--depth", "six"], "--depth takes a whole number from 1 to 12, not 'six'"),
            (["--strategy", "exhaustive", "--depth", "13"], "--depth takes a whole number from 1 to 12, not '13'"),
            (["--strategy", "random", "--depth", "3"], "--depth bounds an exhaustive search, but --strategy is random"),
            (["--strategy", "exhaustive", "--runs", "10"], "bound it with --depth N instead"),
            (["--strategy", "exhaustive", "--shard", "1/2"], "an exhaustive search is not sharded"),
          ])
    func badOptionsAreUsageErrors(options: [String], message: String) {
        let run = CLIRun(["fuzz", PackageRoot.scenario("token-correct-ios17.json")] + options)
        #expect(run.code == .usage)
        #expect(run.code.rawValue == 64)
        #expect(run.errorLines.count == 1 && run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "nothing runs before the options are checked")
    }

    @Test("a scenario file that names exhaustive ignores --runs and runs whole in shard 1 only")
    func fileDeclaredSearchUnderRunsAndShards() {
        let file = PackageRoot.scenario("token-correct-ios17-exhaustive.json")
        let second = CLIRun(["fuzz", file, "--runs", "5", "--shard", "2/2", "--quiet", "--no-failure-db"])
        #expect(second.code == .success, "\(second.stderr)")
        #expect(second.stdout.contains("exhaustive search, skipped in shard 2/2"), "\(second.stdout)")
        #expect(!second.stdout.contains("sequences"))
        let first = CLIRun(["fuzz", file, "--runs", "5", "--shard", "1/2", "--quiet", "--no-failure-db"])
        #expect(first.code == .success, "\(first.stderr)")
        #expect(first.stdout.contains("(--runs does not apply; run whole in shard 1 of 2, not sharded)"), "\(first.stdout)")
        #expect(first.stdout.contains("exhaustive to depth 3: 478 sequences"), "\(first.stdout)")
    }

    @Test("campaign.depth without strategy exhaustive is bad input (exit 65) naming the field")
    func depthWithoutExhaustiveIsBadInput() {
        let folder = TemporaryFolder()
        let file = folder.write("depth.json", ScenarioText.replacing(
            #""horizonSeconds": 600}"#, with: #""horizonSeconds": 600, "depth": 3}"#))
        let run = CLIRun(["fuzz", file, "--quiet"])
        #expect(run.code == .dataError)
        #expect(run.stderr.contains("depth") && run.stderr.contains("exhaustive"), "\(run.stderr)")
    }
}
