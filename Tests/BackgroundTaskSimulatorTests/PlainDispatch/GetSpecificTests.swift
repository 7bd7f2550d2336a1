import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// `DispatchQueue.getSpecific(key:)` inside a run: the "am I on my queue already?" idiom of
/// database wrappers (FMDB, SQLite.swift). Dispatch reads the key from the queue the thread is
/// draining, which never runs a run's work, so it was always nil in a run, and a store that runs
/// a nested call inline when already on its queue synced onto its queue from inside it: a false
/// `no-deadlock` in 298 of 300 runs (found by a probe of app code). The engine now names the
/// Dispatch queue whose block runs on the thread, and the key is read from it and its targets.
@Suite("DispatchQueue.getSpecific", .enabled(if: VirtualClocks.isSupported))
struct GetSpecificTests {
    static func campaign(_ name: String, runs: Int, seed: UInt64, _ make: @escaping @Sendable () -> any Workload) -> WorkloadReport {
        let info = WorkloadInfo(name: name, summary: name, make: make)
        return WorkloadCampaign(workload: info, runs: runs, seed: Seed(seed)).run()
    }

    @Test("a store that runs nested calls inline on its own queue holds every invariant")
    func reentrantStoreHolds() {
        let report = Self.campaign("kv-store", runs: 300, seed: 0x5bec) { StoreSync(store: QueueConfinedStore(checksQueue: true)) }
        #expect(report.passed, "\(report)")
    }

    @Test("its twin, whose nested call syncs onto the queue it runs on, deadlocks and is found")
    func nestedSyncDeadlocks() {
        let report = Self.campaign("kv-store-nested-sync", runs: 50, seed: 0x5bec) { StoreSync(store: QueueConfinedStore(checksQueue: false)) }
        #expect(report.failures.map(\.invariant).contains("no-deadlock"), "\(report)")
    }

    @Test("the key is read where the block runs: async, sync, main, a queue's own key and its target's, a queue let go of, a timer's queue; none on a global queue")
    func keyIsFoundWhereTheBlockRuns() {
        let probe = SpecificProbe()
        let report = Self.campaign("specific-probe", runs: 10, seed: 0x5bed) { SpecificReader(probe: probe) }
        #expect(report.passed, "\(report)")
        let expected = ["launch 7", "async 1", "sync 1", "sync-from-main 1", "main 7", "targeted 2", "through-target 1",
                        "temporary 4", "timer 3", "global nil"]
        #expect(!probe.seen.isEmpty)
        #expect(probe.seen.allSatisfy { $0 == expected }, "\(probe.seen)")
    }
}

/// A key-value store confined to its serial queue. With `checksQueue`, a call made while already
/// on the queue (a transaction calling `set`) runs inline instead of syncing onto the queue
/// again; without, it syncs onto the queue it runs on, which never returns (GCD's documented
/// deadlock).
final class QueueConfinedStore: @unchecked Sendable {
    // @unchecked: `values` is touched only on `queue`.
    private let queue = DispatchQueue(label: "com.example.kv")
    private let key = DispatchSpecificKey<Int>()
    private let checksQueue: Bool
    private var values: [String: Int] = [:]

    init(checksQueue: Bool) {
        self.checksQueue = checksQueue
        queue.setSpecific(key: key, value: 1)
    }

    func perform<T>(_ body: () -> T) -> T {
        if checksQueue, DispatchQueue.getSpecific(key: key) != nil { return body() }
        return queue.sync(execute: body)
    }

    func set(_ value: Int, for name: String) { perform { values[name] = value } }
    func value(for name: String) -> Int? { perform { values[name] } }

    /// Several writes as one: the nested `set`s run on the queue.
    func transaction(_ pairs: [(String, Int)]) { perform { for (name, value) in pairs { set(value, for: name) } } }
}

/// On every background entry, under a background task, a global-queue block writes a
/// transaction; the main thread reads the store when the app becomes active again.
private final class StoreSync: Workload, @unchecked Sendable {
    private let store: QueueConfinedStore
    private var observation: LifecycleObservation?

    init(store: QueueConfinedStore) { self.store = store }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let store = store
        observation = app.addLifecycleObserver { event in
            switch event {
            case .didEnterBackground:
                let token = BackgroundTaskToken(name: "save", host: app)
                let work = context.startWork("save")
                DispatchQueue.global().async {
                    store.transaction([("drafts", 3), ("sent", context.drawInt(in: 0...9))])
                    work.finish()
                    token.invalidate()
                }
            case .didBecomeActive:
                _ = store.value(for: "drafts")
            default:
                break
            }
        }
    }
}

/// What each launch read.
final class SpecificProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    var seen: [[String]] = []
}

/// Reads keys where Dispatch would find them: the main queue's on main at launch and in a main
/// block, a serial queue's in its async block and in a sync onto it (from a global block and
/// from main), a queue's own key and its target's in a block of a queue that targets the serial
/// one, the key of a queue the app let go of in the block it sent there, the key of a timer's
/// queue in its handler (the app keeps only the timer), and none in a global block.
private final class SpecificReader: Workload, @unchecked Sendable {
    private let probe: SpecificProbe
    private var timer: (any DispatchSourceTimer)?
    init(probe: SpecificProbe) { self.probe = probe }

    /// The keys, one each for the test process: the main queue is the process's, and a key
    /// freed while a queue still holds a value for it would leave a dangling entry there.
    static let key = DispatchSpecificKey<Int>(), ownKey = DispatchSpecificKey<Int>()

    func didFinishLaunching(_ context: WorkloadContext) {
        let key = Self.key, ownKey = Self.ownKey
        let queue = DispatchQueue(label: "com.example.serial")
        queue.setSpecific(key: key, value: 1)
        DispatchQueue.main.setSpecific(key: key, value: 7)
        let targeted = DispatchQueue(label: "com.example.targeted", target: queue)
        targeted.setSpecific(key: ownKey, value: 2)
        let probe = probe
        let index = probe.seen.count
        probe.seen.append([])
        let note: @Sendable (String, DispatchSpecificKey<Int>) -> Void = { what, key in
            probe.seen[index].append("\(what) \(DispatchQueue.getSpecific(key: key).map(String.init) ?? "nil")")
        }
        note("launch", key)
        timer = makeTimer(note: note)
        queue.async { [self] in
            note("async", key)
            DispatchQueue.global().async {
                queue.sync { note("sync", key) }
                DispatchQueue.main.async {
                    queue.sync { note("sync-from-main", key) }
                    note("main", key)
                    targeted.async {
                        note("targeted", ownKey)
                        note("through-target", key)
                        // A queue made for one block and let go at once: Dispatch keeps it
                        // alive until its block has run, and so must the run.
                        let temporary = DispatchQueue(label: "com.example.temporary")
                        temporary.setSpecific(key: key, value: 4)
                        temporary.async {
                            note("temporary", key)
                            self.timer?.resume()
                        }
                    }
                }
            }
        }
    }

    /// A timer on a queue only the timer keeps: its handler reads that queue's key, then sends a
    /// global block that finds none.
    private func makeTimer(note: @escaping @Sendable (String, DispatchSpecificKey<Int>) -> Void) -> any DispatchSourceTimer {
        let key = Self.key
        let timerQueue = DispatchQueue(label: "com.example.timer")
        timerQueue.setSpecific(key: key, value: 3)
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        timer.schedule(deadline: .now() + .milliseconds(5))
        timer.setEventHandler {
            note("timer", key)
            DispatchQueue.global().async { note("global", key) }
        }
        return timer
    }
}
