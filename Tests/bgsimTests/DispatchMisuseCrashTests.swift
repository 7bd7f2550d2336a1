import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Dispatch stops the process when its client breaks its contract, and so does a run, with
/// Dispatch's own message: a `DispatchSourceTimer` resumed with no suspension to undo ("Over-resume
/// of an object"; the simulated timer used to accept it) and a `dispatchPrecondition` that does
/// not hold. Each crashes a `WorkloadCampaign` in a child test process (a crash ends the process
/// it happens in) with the run's replay; the correct twins hold.
@Suite(.enabled(if: VirtualClocks.isSupported))
struct DispatchMisuseCrashTests {
    /// Set in the child process the tests below start; absent, the crashing campaigns are skipped.
    static let childVariable = "BGSIM_TEST_DISPATCH_MISUSE"

    static func campaign(_ variant: String) -> WorkloadCampaign {
        let info: WorkloadInfo = switch variant {
        case "poller-restarts": WorkloadInfo(name: "poller-restarts", summary: "starts its timer twice") { ForegroundPoller(tracksState: false) }
        case "poller": WorkloadInfo(name: "poller", summary: "starts its timer once") { ForegroundPoller(tracksState: true) }
        case "badge-off-main": WorkloadInfo(name: "badge-off-main", summary: "updates UI off main") { BadgeUpdater(hopsToMain: false) }
        default: WorkloadInfo(name: "badge", summary: "updates UI on main") { BadgeUpdater(hopsToMain: true) }
        }
        return WorkloadCampaign(workload: info, runs: 30, seed: Seed(0xd15a_7c4))
    }

    @Test("(child process only) a WorkloadCampaign over a workload that misuses Dispatch",
          .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func misuseInChild() {
        _ = Self.campaign(ProcessInfo.processInfo.environment[Self.childVariable] ?? "").run()  // ends the process
    }

    @Test("a misuse stops the run's process with Dispatch's message and the replay, exit 70",
          arguments: [("poller-restarts", "BUG IN CLIENT OF LIBDISPATCH: Over-resume of an object"),
                      ("badge-off-main", "BUG IN CLIENT OF LIBDISPATCH: Assertion failed: Block was expected to execute on queue [com.apple.main-thread]")])
    func misuseCrashes(variant: String, message: String) throws {
        let child = try ChildTestRun(filter: "misuseInChild", variable: Self.childVariable, value: variant)
        let stderr = child.stderr
        #expect(child.exited && child.status == 70, "\(stderr)")
        #expect(stderr.contains(message), "\(stderr)")
        #expect(stderr.contains("WorkloadCampaign: CRASH: fatal signal"), "\(stderr)")
        #expect(stderr.contains("replay: campaign.replay(seed: "), "\(stderr)")
    }

    @Test("the twins, a timer started once per foreground stay and UI updated on main, hold", arguments: ["poller", "badge"])
    func twinsHold(variant: String) {
        let report = Self.campaign(variant).run()
        #expect(report.passed, "\(report)")
    }
}

/// Polls for new mail every 30 s while the app is in the foreground, on a `DispatchSourceTimer`
/// it starts at launch and whenever the app becomes active, and holds while in the background.
/// Without `tracksState` it starts the timer at launch and again when the app becomes active
/// (the launch's own activation): the second `resume()` has no `suspend()` to undo.
private final class ForegroundPoller: Workload, @unchecked Sendable {
    // @unchecked: touched on the main queue only.
    private let tracksState: Bool
    private var timer: (any DispatchSourceTimer)?
    private var isPolling = false
    private var polls = 0
    private var observation: LifecycleObservation?

    init(tracksState: Bool) { self.tracksState = tracksState }

    func didFinishLaunching(_ context: WorkloadContext) {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .seconds(30), repeating: .seconds(30))
        timer.setEventHandler { [self] in polls += 1 }
        self.timer = timer
        observation = context.application.addLifecycleObserver { [self] event in
            switch event {
            case .didBecomeActive: startPolling()
            case .didEnterBackground: stopPolling()
            default: break
            }
        }
        startPolling()
    }

    private func startPolling() {
        if tracksState {
            guard !isPolling else { return }
            isPolling = true
        }
        timer?.resume()
    }

    private func stopPolling() {
        if tracksState {
            guard isPolling else { return }
            isPolling = false
        }
        timer?.suspend()
    }
}

/// Sets the app's badge after a background fetch; the badge setter checks that it runs on main.
/// Without `hopsToMain` the fetch's global-queue block sets it in place.
private final class BadgeUpdater: Workload, @unchecked Sendable {
    private let hopsToMain: Bool
    private var badge = 0

    init(hopsToMain: Bool) { self.hopsToMain = hopsToMain }

    func didFinishLaunching(_ context: WorkloadContext) {
        DispatchQueue.global().async { [self] in
            let unread = context.drawInt(in: 0...9)
            if hopsToMain {
                DispatchQueue.main.async { self.setBadge(unread) }
            } else {
                setBadge(unread)
            }
        }
    }

    private func setBadge(_ count: Int) {
        dispatchPrecondition(condition: .onQueue(.main))
        badge = count
    }
}
