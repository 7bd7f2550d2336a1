import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// `Thread.sleep` where no simulated thread can wait: in a task that teardown finishes after the
/// run (its last jobs run on the driver's thread) and in a run on one thread. Foundation's sleep
/// sleeps again until the uptime passes its deadline; the shim made a real sleep there while the
/// run's clock stood still, so the loop never ended: a cooperative CPU loop (`Thread.sleep` for
/// the work, `Task.yield()` between chunks, as Apple advises) hung the test process at teardown
/// ("a hang in workload code", exit 124; found by a probe). Such a sleep now returns at once and
/// moves the clocks read there by its length.
@Suite("Thread.sleep where no simulated thread can wait", .enabled(if: VirtualClocks.isSupported))
struct LoopLevelSleepTests {
    @Test("a task that sleeps between yields and is still running at the run's end is finished at teardown")
    func teardownFinishesASleepingLoop() {
        for seed in 1...3 as ClosedRange<UInt64> {
            let outcome = RealDispatchTests.run("cpu-loop", seed: seed, usesAsync: true) { ChunkedIndexer() }
            #expect(outcome.violations.allSatisfy { $0.invariant != "no-crash" }, "seed \(seed): \(outcome.violations)")
        }
    }

    @Test("on one thread a sleep in a job returns, the app's clocks having moved by its length")
    func oneThreadSleepMovesTheClock() throws {
        var environment = EnvironmentConfig()
        environment.concurrency.enabled = false
        let probe = LaunchSleepProbe()
        let outcome = RealDispatchTests.run("one-thread-sleep", seed: 7, environment: environment) { SleepingLaunch(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        let slept = try #require(probe.slept)
        #expect(slept >= 0.25 && slept < 0.3, "\(slept)")
    }
}

/// Indexes in chunks on every background entry, in a detached task that sleeps for each chunk's
/// CPU time and yields between chunks: a thousand chunks, more than any run lets it finish.
private final class ChunkedIndexer: Workload, @unchecked Sendable {
    // @unchecked: `observation` is touched on the main queue only.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.application.addLifecycleObserver { event in
            guard event == .didEnterBackground else { return }
            Task.detached {
                for _ in 0..<1_000 {
                    Self.indexChunk()
                    await Task.yield()
                }
            }
        }
    }

    /// One chunk of CPU work (its time, slept).
    static func indexChunk() {
        Thread.sleep(forTimeInterval: 0.25)
    }
}

/// What the launch saw.
private final class LaunchSleepProbe: @unchecked Sendable {
    var slept: TimeInterval?
}

/// Sleeps a quarter of a second at launch, on the main queue, and notes how long its clock says
/// that took.
private final class SleepingLaunch: Workload, @unchecked Sendable {
    private let probe: LaunchSleepProbe
    init(probe: LaunchSleepProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        guard probe.slept == nil else { return }
        let started = Date()
        Thread.sleep(forTimeInterval: 0.25)
        probe.slept = Date().timeIntervalSince(started)
    }
}
