import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// `DispatchQueue.sync` runs its block on the calling thread, also when the queue is busy: the
/// caller waits for the block's turn and then runs it itself (Dispatch's `sync(execute:)`: "this
/// function executes blocks on the current thread whenever possible", the main queue excepted).
/// Probe 8 found a main-thread `sync` onto a busy serial queue ran its block on the queue's own
/// thread: `Thread.isMainThread` was false inside it, a `@MainActor` closure trapped, and a store
/// that tells the UI through a `performOnMainSync` helper called `DispatchQueue.main.sync` from
/// the block while main waited for it: a deadlock, and a crash in the harness, that a device
/// never has (90 of 200 runs of a correct store).
@Suite(.enabled(if: Scheduler.seesPlainAccesses && VirtualClocks.isSupported))
struct SyncFromMainTests {
    @Test("a store updated with queue.sync from main while a journal write keeps its queue busy holds: the block runs on main")
    func busyQueueSyncRunsOnTheCaller() {
        var stores: [JournaledBadgeStore] = []
        var busyRuns = 0
        for seed in 0..<UInt64(200) {
            let store = JournaledBadgeStore()
            stores.append(store)
            let outcome = RealDispatchTests.run("journaled-badge", seed: 0x5c + seed) { store }
            #expect(outcome.violations.isEmpty, "seed \(0x5c + seed): \(outcome.violations.map { "\($0.invariant): \($0.message)" })")
            if store.updatesWhileBusy > 0 { busyRuns += 1 }
        }
        #expect(stores.allSatisfy { $0.blocksOffMain == 0 }, "a sync block from main ran off the main thread")
        #expect(busyRuns > 100, "the queue was busy at an update in \(busyRuns) of 200 runs")
    }

    /// A global-queue block waits in `DispatchQueue.main.sync` for a block that never returns on
    /// main (it polls a semaphore nobody signals). At the run's end main is given up inside the
    /// block, and the caller, unwound after it, returned from its `sync` while the block was
    /// still in progress: Swift's `withoutActuallyEscaping` trapped, a crash of the harness
    /// reported as the app's (probe 8 met it beside a deadlock, 14 of 200 runs).
    @Test("a sync whose block never returns on main is reported, and the run ends without a crash")
    func blockStuckOnMainEndsTheRunCleanly() {
        for seed in 0..<UInt64(20) {
            let outcome = RealDispatchTests.run("main-sync-never-returns", seed: 0xd1 + seed) { MainSyncNeverReturns() }
            let kinds = Set(outcome.violations.map(\.invariant))
            #expect(!kinds.contains("no-crash"), "seed \(0xd1 + seed): \(outcome.violations.map(\.message))")
            #expect(!kinds.isEmpty, "seed \(0xd1 + seed): main stuck in a block was not reported")
        }
    }
}

/// A global-queue block shows a result on main with `DispatchQueue.main.sync`, whose block waits
/// for a semaphore nobody signals, polling it every 100 ms: main never returns.
final class MainSyncNeverReturns: Workload, @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let task = BackgroundTaskToken(name: "show", host: app)
            DispatchQueue.global().async { [self] in
                DispatchQueue.main.sync {
                    while ready.wait(timeout: .now() + .milliseconds(100)) == .timedOut {}
                }
                DispatchQueue.main.async { task.invalidate() }
            }
        }
    }
}

/// Runs `block` on the main thread and waits for it: at once when already there (a helper many
/// code bases have).
func performOnMainSync(_ block: () -> Void) {
    if Thread.isMainThread { block() } else { DispatchQueue.main.sync(execute: block) }
}

/// A store whose state lives on a private serial queue. Three global-queue blocks journal to it
/// with `queue.async` (50 ms of file writing each, so the queue is busy for 150 ms); main, 10 ms
/// after entering the background, updates it with `queue.sync` and tells the UI through
/// ``performOnMainSync(_:)``. Correct on a device: the block of a `sync` from main runs on main,
/// so the helper calls the UI directly.
final class JournaledBadgeStore: Workload, @unchecked Sendable {
    private let queue = DispatchQueue(label: "store")
    private var states: [Int: String] = [:]  // on `queue`
    private var badge = 0  // main
    private var observation: LifecycleObservation?
    /// For the test, read after the run: `sync` blocks from main that ran off the main thread,
    /// and updates that waited for a journal write (virtual time passed before the block ran).
    private(set) var blocksOffMain = 0
    private(set) var updatesWhileBusy = 0

    private func update(_ item: Int, _ state: String) {
        let started = ProcessInfo.processInfo.systemUptime
        // A process the run killed is unwound at the run's end, its code inert: its main is not
        // the process's main any more, nothing it does counts.
        let callerIsMain = Thread.isMainThread
        queue.sync {
            if ProcessInfo.processInfo.systemUptime > started { updatesWhileBusy += 1 }
            if callerIsMain, !Thread.isMainThread { blocksOffMain += 1 }
            states[item] = state
            let sending = states.values.filter { $0 == "sending" }.count
            performOnMainSync { badge = sending }
        }
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let task = BackgroundTaskToken(name: "journal", host: app)
            let group = DispatchGroup()
            for item in 0..<3 {
                DispatchQueue.global().async(group: group) { [self] in
                    queue.async { [self] in
                        states[item] = "journaled"
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.01) { [self] in
                for item in 0..<3 { update(item, "sending") }
                group.notify(queue: .main) { [self] in
                    queue.async { task.invalidate() }
                }
            }
        }
    }
}
