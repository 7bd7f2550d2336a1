import BackgroundTaskSimulator
import BGSimCommands
import DeterministicSimulation
import Foundation
import Testing

/// Issue 17 part 3's last gaps: a stack overflow in workload code (endless recursion) is a
/// finding like any crash, since the fatal-signal handler runs on an alternate signal stack;
/// and a campaign run from a user's own test process (`WorkloadCampaign`) that crashes prints
/// the run seed and the Swift call that replays it before the process ends.
@Suite struct StackOverflowAndCampaignCrashTests {
    static let overflowing = PackageRoot.scenario("backup-retries-offline-recursively-ios17.json")

    @Test("a stack overflow without isolation prints the run seed and replay command, and exits 70")
    func stackOverflowBanner() throws {
        let run = try CrashIsolationTests.spawn(["fuzz", Self.overflowing, "--no-isolate", "--jobs", "1", "--quiet"])
        #expect(run.code == ExitCode.crashed.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("bgsim: CRASH: fatal signal SIGSEGV (a bad memory access, or a stack overflow"))
        let seeds = CrashIsolationTests.bannerSeeds(run.stderr)
        #expect(seeds.count == 1, "\(run.stderr)")
        let replay = try #require(CrashIsolationTests.replayArguments(run.stderr), "\(run.stderr)")
        let again = try CrashIsolationTests.spawn(replay)
        #expect(again.code == ExitCode.crashed.rawValue, "the printed replay overflows again: \(again.stderr)")
        #expect(CrashIsolationTests.bannerSeeds(again.stderr) == seeds)
    }

    @Test("isolated, a stack overflow is a no-crash finding that names the likely cause, shrunk; the correct backup holds")
    func stackOverflowIsolated() throws {
        let run = CLIRun(["check", Self.overflowing, PackageRoot.scenario("backup-correct-ios17.json"), "--quiet",
                          "--no-failure-db"])
        #expect(run.code == .success, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("found no-crash"))
        let fuzz = CLIRun(["fuzz", Self.overflowing, "--isolate", "--jobs", "2", "--quiet", "--no-failure-db"])
        #expect(fuzz.stdout.contains("(fatal signal SIGSEGV)"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("stack overflow from endless recursion"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("shrunk to 3 actions"), "launch, home, networkDown or the like: \(fuzz.stdout)")
    }

    /// Set in the child process the tests below start; absent, the crashing campaign is skipped.
    static let childVariable = "BGSIM_TEST_CRASHING_CAMPAIGN"

    /// The campaign the child runs: the crashing variant named by the child variable.
    static func crashingCampaign(_ variant: String) -> WorkloadCampaign {
        let info = WorkloadCatalog.variant(workload: "backup", variant: variant)!.info
        return WorkloadCampaign(workload: info, runs: 20)
    }

    @Test("(child process only) a WorkloadCampaign over a crashing workload",
          .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func crashingCampaignInChild() {
        let variant = ProcessInfo.processInfo.environment[Self.childVariable] ?? ""
        _ = Self.crashingCampaign(variant).run()  // ends the process with the banner
    }

    @Test("a WorkloadCampaign that crashes in a test process prints the run seed and campaign.replay(seed:), exit 70",
          arguments: ["force-unwrapped-task-id", "retries-offline-recursively"])
    func workloadCampaignCrashBanner(variant: String) throws {
        let child = try ChildTestRun(filter: "crashingCampaignInChild", variable: Self.childVariable, value: variant)
        let stderr = child.stderr
        #expect(child.exited && child.status == 70, "\(stderr)")
        #expect(stderr.contains("WorkloadCampaign: CRASH: fatal signal"), "\(stderr)")  // the engine names no bgsim
        #expect(stderr.contains("of WorkloadCampaign \"backup/\(variant)\""), "\(stderr)")
        #expect(stderr.contains("WorkloadCampaign: the test process ends with exit code 70"))
        let seeds = CrashIsolationTests.bannerSeeds(stderr)
        #expect(seeds.count == 1, "\(stderr)")
        let seed = try #require(seeds.first)
        #expect(stderr.contains("replay: campaign.replay(seed: \(seed))"), "\(stderr)")
        // The seed is one of the campaign's run seeds, so campaign.replay(seed:) reruns that run.
        let campaign = Self.crashingCampaign(variant)
        let runSeeds = (0..<UInt64(campaign.runs)).map { campaign.seed.derive(index: $0).description }
        #expect(runSeeds.contains(seed), "\(seed) is not a run seed of the campaign")
    }
}
