import BGSimCommands
import BackgroundTaskKit
import BackgroundTaskSimulator
import Foundation
import Testing

/// A user's own bgsim (`BGSim.main(workloads:)`): every command over scenario files that name the
/// user's workloads, with the same exit codes; bad workload lists and unknown names are clear
/// errors. (The example package under Scenarios/Examples/UploadKit builds a real one in CI.)
@Suite("Users' workloads on the command line")
struct UserWorkloadsTests {
    /// A user's draft uploader: ends its task in the work's completion, or keeps the token in a
    /// list "for the progress UI" and never ends it (the task is held idle until expiry).
    final class DraftUploader: Workload, @unchecked Sendable {
        // @unchecked: `kept` is touched on the simulated background queue only.
        private let endsTask: Bool
        private var observation: LifecycleObservation?
        private var kept: [BackgroundTaskToken] = []

        init(endsTask: Bool) { self.endsTask = endsTask }

        func didFinishLaunching(_ context: WorkloadContext) {
            let app = context.application
            observation = context.onDidEnterBackground { [self] in
                let work = context.startWork("upload-draft")
                let task = BackgroundTaskToken(name: "upload-draft", host: app) {
                    context.probe("upload-cut-by-expiry")  // the rare path: the upload outlived the budget
                    work.cancel()
                }
                app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                    if !work.isDone { work.finish() }
                    if self.endsTask { task.invalidate() } else { self.kept.append(task) }
                }
            }
        }
    }

    static let workloads = [
        WorkloadInfo(name: "draft-uploader/correct", summary: "ends its task when the upload is done") {
            DraftUploader(endsTask: true)
        },
        WorkloadInfo(name: "draft-uploader/keeps-task", summary: "keeps its token after the upload") {
            DraftUploader(endsTask: false)
        },
    ]

    private func scenario(_ variant: String, expect: String) -> String {
        """
        {
          "name": "draft-\(variant)",
          "workload": "draft-uploader",
          "variant": "\(variant)",
          "profile": "ios17",
          "campaign": {"runs": 60, "seed": "0x5eed", "horizonSeconds": 900},
          "expect": \(expect)
        }
        """
    }

    private func run(_ arguments: [String]) throws -> (code: ExitCode, stdout: String, stderr: String) {
        let registry = try WorkloadRegistry(Self.workloads)
        let (io, captured) = CommandIO.capturing(workloads: registry)
        let code = BGSim.run(arguments, io: io)
        return (code, captured.stdout, captured.stderr)
    }

    @Test("check, fuzz, replay and list work on scenario files naming the user's workloads")
    func everyCommandTakesUserWorkloads() throws {
        let folder = TemporaryFolder()
        let correct = folder.write("draft-correct.json", scenario("correct", expect: "\"pass\""))
        let keeps = folder.write("draft-keeps.json", scenario("keeps-task", expect: #"{"violation": "no-idle-task"}"#))

        // In a test process an isolated child would be the package's own bgsim, which does not
        // know these workloads; a user's bgsim isolates into itself (the example package's CI check).
        let check = try run(["check", folder.path, "--quiet", "--no-isolate"])
        #expect(check.code == .success, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("2 of 2 scenarios met their expectation"))

        let fuzz = try run(["fuzz", keeps, "--runs", "60", "--quiet"])
        let seed = try #require(fuzz.stdout.firstMatch(of: /--seed (0x[0-9a-f]{16})/)?.1, "\(fuzz.stdout)")
        let replay = try run(["replay", keeps, "--seed", String(seed)])
        #expect(replay.code == .violation)
        #expect(replay.stdout.contains("VIOLATION no-idle-task"))

        let passing = try run(["fuzz", correct, "--runs", "30", "--quiet"])
        #expect(passing.code == .success, "\(passing.stdout)\(passing.stderr)")

        let list = try run(["list", "--scenarios", folder.path])
        #expect(list.stdout.contains("draft-uploader / keeps-task: keeps its token after the upload"))
        #expect(!list.stdout.contains("download-manager"), "a user's bgsim lists only the user's workloads")
    }

    @Test("required probes: one the campaign hits passes the gate and is counted; one it never hits fails it")
    func requiredProbesGateTheCampaign() throws {
        let folder = TemporaryFolder()
        let reached = scenario("correct", expect: "\"pass\"")
            .replacingOccurrences(of: "\"expect\"", with: "\"requiredProbes\": [\"upload-cut-by-expiry\"],\n  \"expect\"")
        let file = folder.write("reached.json", reached)
        let passing = try run(["fuzz", file, "--quiet"])
        #expect(passing.code == .success, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.contains(/probes: upload-cut-by-expiry [0-9]+x/))

        let unreachable = reached.replacingOccurrences(of: "upload-cut-by-expiry", with: "never-reached")
        let missed = try run(["check", folder.write("unreached.json", unreachable), "--quiet", "--no-isolate"])
        #expect(missed.code == .violation)
        #expect(missed.stdout.contains("required probe never-reached never hit in 60 runs"))
    }

    @Test("a scenario naming a built-in workload in a user's bgsim is exit 65 with the user's names")
    func unknownWorkloadNamesTheUsersOnes() throws {
        let folder = TemporaryFolder()
        let file = folder.write("builtin.json", ScenarioText.valid)
        let result = try run(["check", file, "--quiet"])
        #expect(result.code == .dataError)
        #expect(result.stderr.contains("$.workload"))
        #expect(result.stderr.contains("draft-uploader"))
    }

    @Test("a workload list with a bad or repeated name cannot be registered, and says which")
    func badWorkloadListsAreRefused() {
        let unnamed = WorkloadInfo(name: "DraftUploader", summary: "") { DraftUploader(endsTask: true) }
        #expect(throws: WorkloadRegistryError.self) { try WorkloadRegistry([unnamed]) }
        do {
            _ = try WorkloadRegistry(Self.workloads + [Self.workloads[0]])
            Issue.record("a repeated workload was registered")
        } catch {
            #expect(error.description.contains("draft-uploader/correct"))
            #expect(error.description.contains("registered twice"))
        }
        let clash = WorkloadInfo(name: "token/correct", summary: "") { DraftUploader(endsTask: true) }
        #expect(throws: WorkloadRegistryError.self) { try WorkloadRegistry([clash], includingBuiltIn: true) }
        #expect((try? WorkloadRegistry([clash]))?.variants.count == 1, "without the built-ins the name is free")
    }

    @Test("the replay call a Swift report prints takes the seed as a number and reruns the failure")
    func reportReplayCallRuns() throws {
        let campaign = WorkloadCampaign(workload: Self.workloads[1], runs: 40)
        let failure = try #require(campaign.run().failures.first)
        #expect(failure.replay == "campaign.replay(seed: \(failure.seed))")
        let outcome = campaign.replay(seed: failure.seed.rawValue)
        #expect(outcome.firstViolation(of: failure.invariant) != nil)
        #expect(outcome.traceText.contains("VIOLATION \(failure.invariant)"))
        #expect(outcome.perfettoJSON.hasPrefix("{\"traceEvents\":["))
    }
}
