import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// A long-lived `Task` started at launch that wakes every 30 s for the app's whole life, as a chat
/// app's presence heartbeat is written (`try?` on the sleep, nothing ever cancels it). Correct on
/// a device. Under the plain-state checks it crashed the test process: the first scheduling of
/// each new task grew the detector's dictionary of synchronisation clocks, the growth took the
/// Swift runtime's metadata lock, and the shim told the detector about that lock while the
/// dictionary was being changed (a fatal exclusivity conflict, reported as a crash in workload
/// code). The runtime's own locks are no edges now, and the engine's own changes to the detector
/// run with the shim quiet (`Scheduler.withShimQuiet`).
@Suite("A long-lived heartbeat Task")
struct LongLivedTaskTests {
    @Test("a heartbeat Task for the app's whole life holds every invariant, with plain checks on")
    func heartbeatHolds() {
        for seed in 1...3 as ClosedRange<UInt64> {
            let outcome = RealDispatchTests.run("presence-heartbeat", seed: seed, usesAsync: true) { PresenceHeartbeat() }
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.map(\.message))")
            #expect(outcome.trace.contains { $0.event.name == "probe" }, "seed \(seed): the heartbeat never pinged")
        }
    }
}

/// Pings presence every 30 s while the app is active, from one `Task` made at launch.
@MainActor
private final class PresenceHeartbeat: Workload {
    private var isActive = false
    private var pings = 0
    private var loop: Task<Void, Never>?
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.application.addLifecycleObserver { [self] event in
            switch event {
            case .didBecomeActive: isActive = true
            case .willResignActive: isActive = false
            default: break
            }
        }
        loop = Task { [weak self] in
            while true {
                try? await Task.sleep(for: .seconds(30))
                guard let self else { return }
                if self.isActive {
                    self.pings += 1
                    context.probe("presence-ping")
                }
            }
        }
    }
}
