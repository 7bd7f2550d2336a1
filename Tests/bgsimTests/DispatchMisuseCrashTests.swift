import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Dispatch stops the process when its client breaks its contract, and so does a run, with
/// Dispatch's own message: a `DispatchSourceTimer` resumed with no suspension to undo ("Over-resume
/// of an object"), one let go of while suspended ("Release of a suspended object"; the
/// simulated timer used to accept both) and a `dispatchPrecondition` that does not hold. Each
/// crashes a `WorkloadCampaign` in a child test process (a crash ends the process it happens in)
/// with the run's replay; the correct twins hold. And a running timer the app keeps no reference
/// to is cancelled, as Dispatch cancels a source on its last release (it used to fire on).
@Suite(.enabled(if: VirtualClocks.isSupported))
struct DispatchMisuseCrashTests {
    /// Set in the child process the tests below start; absent, the crashing campaigns are skipped.
    static let childVariable = "BGSIM_TEST_DISPATCH_MISUSE"

    static func campaign(_ variant: String) -> WorkloadCampaign {
        let info: WorkloadInfo = switch variant {
        case "poller-restarts": WorkloadInfo(name: "poller-restarts", summary: "starts its timer twice") { ForegroundPoller(tracksState: false) }
        case "poller": WorkloadInfo(name: "poller", summary: "starts its timer once") { ForegroundPoller(tracksState: true) }
        case "badge-off-main": WorkloadInfo(name: "badge-off-main", summary: "updates UI off main") { BadgeUpdater(hopsToMain: false) }
        case "sessions-release-suspended":
            WorkloadInfo(name: "sessions-release-suspended", summary: "lets go of a suspended timer") { SessionClock(deinitResumes: false) }
        case "sessions": WorkloadInfo(name: "sessions", summary: "resumes and cancels its timer in deinit") { SessionClock(deinitResumes: true) }
        case "flush-timer-not-kept":
            WorkloadInfo(name: "flush-timer-not-kept", summary: "keeps no reference to its timer") { DelayedFlush(keepsTimer: false) }
        case "flush-timer": WorkloadInfo(name: "flush-timer", summary: "keeps its timer") { DelayedFlush(keepsTimer: true) }
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
                      ("sessions-release-suspended", "BUG IN CLIENT OF LIBDISPATCH: Release of a suspended object"),
                      ("badge-off-main", "BUG IN CLIENT OF LIBDISPATCH: Assertion failed: Block was expected to execute on queue [com.apple.main-thread]")])
    func misuseCrashes(variant: String, message: String) throws {
        let child = try ChildTestRun(filter: "misuseInChild", variable: Self.childVariable, value: variant)
        let stderr = child.stderr
        #expect(child.exited && child.status == 70, "\(stderr)")
        #expect(stderr.contains(message), "\(stderr)")
        #expect(stderr.contains("WorkloadCampaign: CRASH: fatal signal"), "\(stderr)")
        #expect(stderr.contains("replay: campaign.replay(seed: "), "\(stderr)")
    }

    @Test("the twins hold: a timer started once per foreground stay, UI updated on main, a timer resumed and cancelled in deinit, a timer kept",
          arguments: ["poller", "badge", "sessions", "flush-timer"])
    func twinsHold(variant: String) {
        let report = Self.campaign(variant).run()
        #expect(report.passed, "\(report)")
    }

    @Test("a timer the app keeps no reference to is cancelled when its last reference goes, as on a device: the flush it would run never runs")
    func timerNotKeptNeverFires() {
        let report = Self.campaign("flush-timer-not-kept").run()
        #expect(report.failures.map(\.invariant).contains("no-idle-task"), "\(report)")
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

/// Counts the seconds of each foreground session on a `DispatchSourceTimer`, held while in the
/// background; a new session (the app becomes active) gets a new clock, and the old one goes.
/// Without `deinitResumes` the old clock is let go of suspended (Dispatch stops the process); its
/// twin resumes and cancels its timer in `deinit`, the documented way.
private final class SessionClock: Workload, @unchecked Sendable {
    // @unchecked: touched on the main queue only.
    private final class Clock {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let resumesInDeinit: Bool
        var isSuspended = false
        var seconds = 0

        init(resumesInDeinit: Bool) {
            self.resumesInDeinit = resumesInDeinit
            timer.schedule(deadline: .now() + 1, repeating: 1)
            timer.setEventHandler { [unowned self] in seconds += 1 }
            timer.resume()
        }

        func hold() {
            guard !isSuspended else { return }
            isSuspended = true
            timer.suspend()
        }

        deinit {
            guard resumesInDeinit else { return }
            timer.setEventHandler(handler: nil)
            timer.cancel()
            if isSuspended { timer.resume() }
        }
    }

    private let deinitResumes: Bool
    private var clock: Clock?
    private var observation: LifecycleObservation?

    init(deinitResumes: Bool) { self.deinitResumes = deinitResumes }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.application.addLifecycleObserver { [self] event in
            switch event {
            case .didBecomeActive: clock = Clock(resumesInDeinit: deinitResumes)
            case .didEnterBackground: clock?.hold()
            default: break
            }
        }
    }
}

/// On each background entry, flushes a buffer two seconds later (after the last writes settle)
/// under a background task, on a one-shot `DispatchSourceTimer` kept until it fired; the
/// expiration handler cancels a flush not yet made. Without `keepsTimer` the timer is a local:
/// Dispatch cancels it when the function returns and lets go of it, so the flush never runs and
/// the task is held with nothing to do until it expires (`no-idle-task`).
private final class DelayedFlush: Workload, @unchecked Sendable {
    // @unchecked: touched on the main queue only.
    private let keepsTimer: Bool
    /// The timers not yet fired, by flush.
    private var pending: [Int: any DispatchSourceTimer] = [:]
    private var flushes = 0
    private var observation: LifecycleObservation?

    init(keepsTimer: Bool) { self.keepsTimer = keepsTimer }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = app.addLifecycleObserver { [self] event in
            guard event == .didEnterBackground else { return }
            flushes += 1
            let flush = flushes
            var task = BackgroundTaskIdentifier.invalid
            task = app.beginBackgroundTask(withName: "flush") { [self] in
                pending.removeValue(forKey: flush)?.cancel()
                app.endBackgroundTask(task)
                task = .invalid
            }
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + 2)
            timer.setEventHandler { [self] in
                pending[flush] = nil
                context.startWork("flush").finish()
                if task != .invalid {
                    app.endBackgroundTask(task)
                    task = .invalid
                }
            }
            timer.resume()
            if keepsTimer { pending[flush] = timer }
        }
    }
}
