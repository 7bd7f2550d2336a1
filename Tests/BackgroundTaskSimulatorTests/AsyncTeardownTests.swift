@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// An async workload's run ends with its Swift tasks finished, not abandoned: teardown cancels
/// what is still suspended and counts the tasks a never-resumed continuation keeps.
@Suite("Async workloads' teardown")
struct AsyncTeardownTests {
    /// The teardown drains of `runs` runs of a workload variant (iOS 17, default environment).
    static func drains(_ workload: String, _ variant: String, runs: Int = 20) -> [AsyncDrainResult] {
        let entry = WorkloadCatalog.variant(workload: workload, variant: variant)!
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                           invariants: Invariant.all, horizon: .seconds(1_800))
        return (0..<runs).map { index in
            let device = SimulatedDevice(profile: spec.profile, environment: spec.environment, workload: spec.workload,
                                         choices: ChoiceSource(seed: Seed(0xd4a1_0000_0000_0000 | UInt64(index))))
            EnvironmentDriver(device: device, horizon: spec.horizon).start()
            device.scheduler.runLast(until: spec.horizon + spec.settleLimit) { _ in }
            device.tearDown()
            return device.asyncDrain ?? AsyncDrainResult()
        }
    }

    @Test("every correct async workload leaves no task suspended after teardown", arguments: [
        "token-async", "journal-sync", "podcast-downloads", "photo-import", "forecast-refresh", "health-upload", "inbox-sync",
    ])
    func correctLeavesNothing(workload: String) {
        let drains = Self.drains(workload, "correct")
        let clean = drains.allSatisfy { $0.tasksLeftWaiting == 0 && $0.jobsLeft == 0 }
        #expect(clean, "\(drains)")
    }

    @Test("a task job preempted before its await ends before the drain cancels: no task is left waiting")
    func preemptedTaskJobIsReachedByTheDrain() {
        // Run 16 of these seeds is the case: a force-quit lands while a download task's first
        // job is off the CPU before it reached its continuation. Before the drain unwound
        // suspended threads first, that task entered its wait after the cancellation pass and
        // stayed suspended for good.
        let drains = Self.drains("podcast-downloads", "correct", runs: 60)
        #expect(drains.allSatisfy { $0.tasksLeftWaiting == 0 && $0.jobsLeft == 0 }, "\(drains)")
        #expect(drains.reduce(0) { $0 + $1.tasksCancelled } > 20)
    }

    @Test("the continuation never resumed on the expiry path is counted as tasks left suspended")
    func plantedContinuationIsCounted() {
        let drains = Self.drains("podcast-downloads", "continuation-never-resumed")
        #expect(drains.contains { $0.tasksLeftWaiting > 0 })
    }
}
