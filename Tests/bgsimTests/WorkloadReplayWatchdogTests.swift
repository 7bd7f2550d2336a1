import BackgroundTaskSimulator
import BGSimCommands
import DeterministicSimulation
import Foundation
import Testing

/// `campaign.replay(seed:)` of a run that hangs is guarded as the campaign's runs are: it prints
/// the replay and ends the test process with exit code 124 after `runTimeout`. Before, it spun on
/// forever; when a test runner's timeout killed `swift test`, the test process it had started
/// kept a CPU busy until killed by hand (found by a probe of app code).
@Suite struct WorkloadReplayWatchdogTests {
    /// Set in the child process the test below starts; absent, the hanging replays are skipped.
    static let childVariable = "BGSIM_TEST_HANGING_REPLAY"

    /// A campaign whose workload busy-waits for the network in some runs.
    static var hangingCampaign: WorkloadCampaign {
        let info = WorkloadCatalog.variant(workload: "backup", variant: "spins-until-online")!.info
        var campaign = WorkloadCampaign(workload: info, runs: 30)
        campaign.runTimeout = .seconds(1)
        return campaign
    }

    @Test("(child process only) replays a hanging workload's runs in turn",
          .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func hangingReplaysInChild() {
        let campaign = Self.hangingCampaign
        for index in 0..<UInt64(campaign.runs) {
            _ = campaign.replay(seed: campaign.seed.derive(index: index))  // the first hang ends the process
        }
    }

    @Test("a replay that hangs prints the replay and ends the test process with exit code 124")
    func hangingReplayEndsTheProcess() throws {
        let child = try ChildTestRun(filter: "hangingReplaysInChild", variable: Self.childVariable, value: "1")
        let stderr = child.stderr
        #expect(child.exited && child.status == 124, "\(stderr)")
        #expect(stderr.contains("WorkloadCampaign: HANG: a run made no progress for 1 s"), "\(stderr)")
        let lead = "during the replay of run seed "
        let line = try #require(stderr.split(separator: "\n").first { $0.contains(lead) }, "\(stderr)")
        let seed = String(line[line.range(of: lead)!.upperBound...].prefix(18))
        #expect(line.hasSuffix("\(seed) of WorkloadCampaign \"backup/spins-until-online\""), "\(stderr)")
        let campaign = Self.hangingCampaign
        #expect((0..<UInt64(campaign.runs)).contains { campaign.seed.derive(index: $0).description == seed }, "\(seed)")
        #expect(stderr.contains("replay: campaign.replay(seed: \(seed))"), "\(stderr)")
    }
}
