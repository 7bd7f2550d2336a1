import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// `NotificationCenter.default` inside a run is the simulated process's own
/// (foundation_singletons.c, `ProcessFoundationSingletons`), as on a device where each launch
/// starts with a new one. Before, it was the test process's: a killed process's observers
/// received later processes' posts, and later runs'.
@Suite(.enabled(if: VirtualClocks.isSupported))
struct FoundationSingletonTests {
    @Test("each process's posts reach its own observers only, never a killed process's")
    func observersArePerProcess() {
        var relaunched = 0
        for seed in 1...30 as ClosedRange<UInt64> {
            let probe = SingletonProbe()
            let outcome = RealDispatchTests.run("observers", seed: seed) { ObservesItsOwnPosts(probe: probe) }
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.map(\.message))")
            if probe.processes.count > 1 { relaunched += 1 }
            for (index, process) in probe.processes.enumerated() {
                #expect(process.observed == process.posted, "seed \(seed), process \(index + 1): posted \(process.posted), observed \(process.observed)")
            }
            let centers = probe.processes.map(\.center)
            #expect(Set(centers).count == centers.count, "seed \(seed): two processes shared a center")
        }
        #expect(relaunched > 0, "no run launched the app twice")
    }

    @Test("an observer added in a run is gone after it: a post outside runs does not reach it")
    func observersDoNotOutliveTheRun() {
        let probe = SingletonProbe()
        _ = RealDispatchTests.run("outlive", seed: 5) { ObservesItsOwnPosts(probe: probe) }
        let before = probe.processes.map(\.observed)
        NotificationCenter.default.post(name: ObservesItsOwnPosts.name, object: nil)
        #expect(probe.processes.map(\.observed) == before, "a run's observer ran outside it")
    }
}

// MARK: App-style workloads

final class SingletonProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    final class Process: @unchecked Sendable {
        var posted = 0
        var observed = 0
        var center = ObjectIdentifier(SingletonProbe.self)
    }
    var processes: [Process] = []

    /// A new record for the process being launched.
    func record() -> Process {
        let mine = Process()
        processes.append(mine)
        return mine
    }
}

/// Observes a notification for the life of the process (never removed, as app code often
/// leaves a launch-time observer) and posts it each time the app goes to the background.
final class ObservesItsOwnPosts: Workload, @unchecked Sendable {
    static let name = Notification.Name("FoundationSingletonTests.syncRequested")
    private let probe: SingletonProbe
    private var observation: LifecycleObservation?

    init(probe: SingletonProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = probe.record()
        let center = NotificationCenter.default
        mine.center = ObjectIdentifier(center)
        _ = center.addObserver(forName: Self.name, object: nil, queue: nil) { _ in mine.observed += 1 }
        observation = context.onDidEnterBackground {
            mine.posted += 1
            NotificationCenter.default.post(name: Self.name, object: nil)
        }
    }
}
