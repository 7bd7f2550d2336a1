import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// App code that keeps its last sync time in `UserDefaults.standard`, as apps do. The test process
/// has one `UserDefaults.standard`, and a campaign runs every run in it: what one run stored the
/// next one read, so after the first run the sync was skipped ("it ran 10 minutes ago", in another
/// run), and a rerun of the same seed took another path (a probe's campaign passed with a
/// NONDETERMINISM, its sync exercised in almost no run). Inside a run `UserDefaults.standard` is
/// now the run's own (shared by its launches, as on a device), and removed at its end.
@Suite("UserDefaults.standard in a run", .enabled(if: VirtualClocks.isSupported))
struct UserDefaultsPerRunTests {
    static let info = WorkloadInfo(name: "digest-sync", summary: "syncs at most every 10 minutes") { DigestSync() }

    @Test("each run starts with empty defaults: the same seed replays exactly, and the first launch syncs")
    func eachRunStartsEmpty() {
        let campaign = WorkloadCampaign(workload: Self.info, runs: 50, seed: Seed(0xde_fa17))
        for index in 0..<8 as Range<UInt64> {
            let seed = campaign.seed.derive(index: index)
            let outcomes = (0..<3).map { _ in campaign.replay(seed: seed) }
            #expect(Set(outcomes.map(\.digest)).count == 1, "run seed \(seed): \(outcomes.map(\.digest))")
            let syncs = outcomes[0].trace.filter { $0.event.name == "work.start" }.count
            #expect(syncs > 0, "run seed \(seed): no sync ran: the run read a sync time it never stored")
        }
        #expect(UserDefaults.standard.object(forKey: DigestSync.lastSyncKey) == nil, "a run wrote the test process's defaults")
    }

    @Test("a relaunch in the same run reads what the previous launch stored")
    func launchesShareTheRunsDefaults() {
        let probe = LaunchProbe()
        var environment = EnvironmentConfig()
        environment.concurrency.enabled = false
        _ = RealDispatchTests.run("launch-count", seed: 11, environment: environment) { CountingLaunch(probe: probe) }
        #expect(probe.counts.count > 1, "the run relaunched no process: \(probe.counts)")
        #expect(probe.counts == Array(1...probe.counts.count), "\(probe.counts)")
    }

    @Test("a campaign holds every invariant with no nondeterminism")
    func campaignHolds() {
        let report = WorkloadCampaign(workload: Self.info, runs: 200, seed: Seed(0xde_fa17)).run()
        #expect(report.passed, "\(report)")
    }
}

/// On every background entry, under a background task, syncs the digest unless the last sync
/// (kept in `UserDefaults.standard`) was less than 10 minutes ago.
private final class DigestSync: Workload, @unchecked Sendable {
    // @unchecked: `observation` is touched on the main queue only.
    static let lastSyncKey = "lastDigestSync"
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = app.addLifecycleObserver { event in
            guard event == .didEnterBackground else { return }
            let now = Date().timeIntervalSince1970
            let last = UserDefaults.standard.double(forKey: Self.lastSyncKey)
            guard now - last >= 600 else { return }
            let work = context.startWork("sync-digest")
            let token = BackgroundTaskToken(name: "digest", host: app) { work.cancel() }
            app.mainQueue.asyncAfter(context.drawWorkDuration()) {
                guard !work.isDone else { return }  // cancelled on expiry
                work.finish()
                UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: Self.lastSyncKey)
                token.invalidate()
            }
        }
    }
}

/// The launch counts each process of a run saw.
private final class LaunchProbe: @unchecked Sendable {
    var counts: [Int] = []
}

/// Counts its launches in `UserDefaults.standard`.
private final class CountingLaunch: Workload, @unchecked Sendable {
    private let probe: LaunchProbe
    init(probe: LaunchProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let count = UserDefaults.standard.integer(forKey: "launches") + 1
        UserDefaults.standard.set(count, forKey: "launches")
        probe.counts.append(count)
    }
}
