import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import SimulationRuntime
import Testing

/// The shim remembers each Dispatch source a run makes, so that the run's calls on it reach the
/// simulated timer. It kept 256 for the whole process and let the oldest go: once the runs of a
/// process had made that many (another campaign at the same time, or one run's request timeouts),
/// a timer's `suspend()` went to real Dispatch, the simulated timer fired on while suspended, and
/// two identical campaigns at once were reported as NONDETERMINISM (found by a probe of app
/// code). The table now grows, and forgets a run's sources when the run ends, freeing the timers
/// nothing else holds (each was kept for the life of the process).
@Suite(.enabled(if: VirtualClocks.isSupported))
struct ManyTimersTests {
    static func campaign(timeouts: Int) -> WorkloadCampaign {
        let info = WorkloadInfo(name: "heartbeat-\(timeouts)", summary: "a heartbeat and request timeouts") {
            HeartbeatWithTimeouts(timeouts: timeouts)
        }
        return WorkloadCampaign(workload: info, runs: 40, seed: Seed(0x7133))
    }

    @Test("a run that makes hundreds of timers still simulates its first: suspended in the background, it never fires there")
    func firstTimerStaysSimulated() {
        let report = Self.campaign(timeouts: 300).run()
        #expect(report.passed, "\(report)")
    }

    @Test("the timers of an ended run that nothing else holds are freed with it")
    func endedRunsFreeTheirTimers() {
        let made = TimerCount()
        let info = WorkloadInfo(name: "heartbeat-counted", summary: "a heartbeat and request timeouts") {
            HeartbeatWithTimeouts(timeouts: 100, made: made)
        }
        let before = RealDispatchCall.sourcesFreed
        let report = WorkloadCampaign(workload: info, runs: 20, seed: Seed(0x7134)).run()
        #expect(report.passed, "\(report)")
        // Other tests may free timers meanwhile: at least this campaign's were freed.
        let freed = RealDispatchCall.sourcesFreed - before
        #expect(made.value > 1_000 && freed >= UInt64(made.value), "\(freed) of \(made.value) timers freed")
    }

    @Test("two campaigns with many timers at once in one process report what each reports alone")
    func concurrentCampaignsAgreeWithSolo() async {
        let alone = Self.campaign(timeouts: 64).run()
        async let first = Task.detached { Self.campaign(timeouts: 64).run() }.value
        async let second = Task.detached { Self.campaign(timeouts: 64).run() }.value
        let (one, two) = await (first, second)
        #expect(alone.passed, "\(alone)")
        let digest = { (report: WorkloadReport) in report.result.totals.digest.digest }
        #expect(digest(one) == digest(alone) && digest(two) == digest(alone), "\(alone) \(one) \(two)")
        #expect(one.result.nondeterminism.isEmpty && two.result.nondeterminism.isEmpty, "\(one) \(two)")
    }
}

/// A heartbeat timer made at launch runs while the app is active and is suspended in the
/// background (it must never fire there: a precondition says so); on each background entry, a
/// sync sends `timeouts` requests, each with a timeout timer made, resumed and cancelled.
private final class HeartbeatWithTimeouts: Workload, @unchecked Sendable {
    // @unchecked: touched on the main queue only.
    private let timeouts: Int
    private let made: TimerCount?
    private var heartbeat: (any DispatchSourceTimer)?
    private var isActive = false
    private var observation: LifecycleObservation?

    init(timeouts: Int, made: TimerCount? = nil) {
        self.timeouts = timeouts
        self.made = made
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let heartbeat = DispatchSource.makeTimerSource(queue: .main)
        made?.value += 1
        heartbeat.schedule(deadline: .now() + 1, repeating: 1)
        heartbeat.setEventHandler { [self] in precondition(isActive, "the heartbeat fired in the background") }
        self.heartbeat = heartbeat
        observation = context.application.addLifecycleObserver { [self] event in
            switch event {
            case .didBecomeActive:
                guard !isActive else { return }
                isActive = true
                heartbeat.resume()
            case .willResignActive:
                guard isActive else { return }
                isActive = false
                heartbeat.suspend()
            case .didEnterBackground:
                for _ in 0..<timeouts {
                    let timeout = DispatchSource.makeTimerSource(queue: .main)
                    made?.value += 1
                    timeout.schedule(deadline: .now() + 30)
                    timeout.setEventHandler {}
                    timeout.resume()
                    timeout.cancel()
                }
            default:
                break
            }
        }
    }
}

/// How many timers a campaign's runs made.
private final class TimerCount: @unchecked Sendable {
    // @unchecked: the campaign runs one run at a time (one job), each on one thread at a time.
    var value = 0
}
