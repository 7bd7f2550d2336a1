import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Synchronization
import Testing

/// Work a killed process's code sends to Dispatch while the run's end unwinds it never runs (its
/// queues are frozen), and the shim used to keep every such block, with what it captured, for
/// the life of the test process: through the captures, the dead process's whole application
/// object. gcd-photo-sync grew by 2.7 KB a run (48 MB after 5,000 runs, 35 MB now, flat). Now the
/// simulator keeps that work and releases it at the run's teardown, except in a run that used
/// Swift concurrency, where a checked continuation among the captures would print Swift's
/// "leaked its continuation" warning for code that did nothing wrong (a probe's test log had
/// hundreds of them): there, work that never ran lets go of its block unreleased.
@Suite(.enabled(if: VirtualClocks.isSupported), .serialized)
struct DeadProcessWorkTests {
    @Test("a killed process's Dispatch blocks, sent as the run's end unwinds it, are released with the run")
    func deadWorkIsReleased() {
        let before = Receipt.live.load(ordering: .relaxed)
        let info = WorkloadInfo(name: "journal-sync/never-ends", summary: "logs each batch on a queue; never ends its task") {
            JournalSync(awaitsFlush: false)
        }
        let report = WorkloadCampaign(workload: info, runs: 30, seed: Seed(0xdead)).run()
        #expect(report.failures.contains { $0.invariant == "no-watchdog-kill" }, "the app is killed: \(report.failures)")
        #expect(Receipt.made.load(ordering: .relaxed) > 100, "batches were logged")
        #expect(Receipt.live.load(ordering: .relaxed) == before, "every receipt of the killed processes was freed")
    }

    @Test("in a run with Swift concurrency, never-run work that may hold a continuation is let go unreleased (no misuse warning)")
    func continuationWorkIsNotReleased() {
        let before = Receipt.live.load(ordering: .relaxed)
        let info = WorkloadInfo(name: "journal-sync/awaits-flush", summary: "awaits the log's flush; never ends its task",
                                usesAsync: true) {
            JournalSync(awaitsFlush: true)
        }
        let report = WorkloadCampaign(workload: info, runs: 10, seed: Seed(0xdead)).run()
        #expect(report.failures.contains { $0.invariant == "no-watchdog-kill" }, "\(report.failures)")
        // The flush's block holds the continuation beside a receipt: released, the continuation
        // would print "SWIFT TASK CONTINUATION MISUSE: … leaked its continuation" for a process
        // that was killed. It is kept instead, receipt and all.
        #expect(Receipt.live.load(ordering: .relaxed) > before, "the blocks that never ran were not released")
    }
}

/// What one logged batch leaves: counted while alive.
private final class Receipt: Sendable {
    static let made = Atomic<Int>(0)
    static let live = Atomic<Int>(0)

    init() {
        Self.made.add(1, ordering: .relaxed)
        Self.live.add(1, ordering: .relaxed)
    }

    deinit { Self.live.subtract(1, ordering: .relaxed) }
}

/// A journal sync that begins a background task on background entry and never ends it (so the
/// app is killed at the deadline), uploading batches on a global queue and logging each on a
/// serial queue of its own; with `awaitsFlush`, instead a task awaits the log's flush, a block
/// sent an hour ahead that never runs.
private final class JournalSync: Workload, @unchecked Sendable {
    // @unchecked: `observation` is set once, on the main queue.
    private let awaitsFlush: Bool
    private let log = DispatchQueue(label: "journal-sync.log")  // tidy: allow GCD runs on simulated queues in a run
    private var observation: LifecycleObservation?

    init(awaitsFlush: Bool) { self.awaitsFlush = awaitsFlush }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            _ = app.beginBackgroundTask(withName: "journal-sync") {}  // the bug: never ended
            guard awaitsFlush else {
                DispatchQueue.global().async { [self] in  // tidy: allow GCD runs on simulated queues in a run
                    for _ in 0..<8 {
                        Thread.sleep(forTimeInterval: 10)  // the upload; still going when the app is killed
                        let receipt = Receipt()
                        log.async { withExtendedLifetime(receipt) {} }
                    }
                }
                return
            }
            Task { [log] in
                await withCheckedContinuation { (flushed: CheckedContinuation<Void, Never>) in
                    let receipt = Receipt()
                    log.asyncAfter(deadline: .now() + 3_600) { withExtendedLifetime(receipt) { flushed.resume() } }
                }
            }
        }
    }
}
