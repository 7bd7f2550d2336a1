import BackgroundTaskKit
import BackgroundTaskSimulator
import BackgroundTaskSimulatorTesting
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// A recorder whose fast path takes its lock with `try()` and, when the lock is busy, appends to an
/// overflow list instead of waiting: a common way to keep a hot path from blocking. The buggy
/// twin appends to the overflow list with no lock (two threads that find the lock busy race on
/// it); the correct twin guards it with a lock of its own. `try()` fails only while another
/// thread holds the lock, so the runs must be able to stop a thread inside its critical section:
/// the release of a lock app code took is a scheduling point too. Before, no run ever saw the lock
/// busy and the bug was never found, at any number of runs (the probe's digests of the two twins
/// were equal).
@Suite(.enabled(if: Scheduler.seesPlainAccesses && Scheduler.tracksPlainLocks && VirtualClocks.isSupported))
struct TryLockFallbackTests {
    static func outcomes(_ overflow: SampleRecorder.Overflow, runs: Int) -> [RunOutcome] {
        (0..<UInt64(runs)).map { seed in
            RealDispatchTests.run("samples", seed: 0x7e1 + seed) { SampleRecorder(overflow: overflow) }
        }
    }

    @Test("a try-lock fallback that writes unguarded is found (no-data-race); the guarded twin holds")
    func unguardedFallbackIsFoundAndTwinHolds() {
        let buggy = Self.outcomes(.unguarded, runs: 200)
        let races = buggy.flatMap(\.violations).filter { $0.invariant == "no-data-race" }
        #expect(!races.isEmpty, "no run saw the lock busy: \(buggy.compactMap(\.violations.first?.message).prefix(3))")
        #expect(races.allSatisfy { $0.message.contains("SampleRecorder.overflow") || $0.message.contains("SampleRecorder.fallbacks") }, "\(races.map(\.message).prefix(3))")
        for outcome in Self.outcomes(.guarded, runs: 200) {
            #expect(outcome.violations.isEmpty, "\(outcome.violations.map { "\($0.invariant): \($0.message)" })")
        }
    }

    @Test("a C mutex stored in a property and passed as &mutex never traps the run when contended (in test processes)")
    func storedMutexNeverTraps() throws {
        var campaign = WorkloadCampaign(
            workload: WorkloadInfo(name: "stored-mutex-counter", summary: "counts under a stored pthread mutex") {
                StoredMutexCounter()
            },
            runs: 200, seed: Seed(0x7e1))
        campaign.isolation = try .testProcesses()
        campaign.runTimeout = .seconds(10)
        let report = campaign.run()
        #expect(!report.failures.contains { $0.invariant == "no-crash" }, "\(report.failures.map(\.message))")
        #expect(report.failures.allSatisfy { $0.invariant == "no-data-race" && $0.message.contains("StoredMutexCounter.mutex") },
                "\(report.failures.map { "\($0.invariant): \($0.message)" })")
    }

    @Test("the lock is seen busy: some guarded runs take the fallback")
    func fallbackIsTaken() {
        let recorders = (0..<UInt64(100)).map { seed -> SampleRecorder in
            let recorder = SampleRecorder(overflow: .guarded)
            _ = RealDispatchTests.run("samples", seed: 0x7e1 + seed) { recorder }
            return recorder
        }
        #expect(recorders.contains { $0.fallbacks > 0 }, "try() never failed in 100 runs")
    }
}

/// A counter guarded by a C mutex stored in a Swift property and passed as `&mutex`: a `trylock`,
/// then a `lock` when it is busy. Each call is a Swift access to `mutex` for its duration, and the
/// run's simulated threads share one exclusivity access set (a device's threads have one each):
/// a thread blocked in `lock(&mutex)` holds its access open, and the holder's `unlock(&mutex)`
/// trapped as an exclusivity conflict once releases were points ("Fatal access conflict detected",
/// probe 7's rerun). A lock under its own pass's access is no point now. The stored mutex is still
/// reported as racing (Swift may move a stored value; allocate it instead).
final class StoredMutexCounter: Workload, @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var count = 0
    private var observation: LifecycleObservation?

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    private func increment() {
        if pthread_mutex_trylock(&mutex) != 0 { pthread_mutex_lock(&mutex) }
        count += 1
        pthread_mutex_unlock(&mutex)
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let task = BackgroundTaskToken(name: "count", host: app)
            let group = DispatchGroup()
            for _ in 0..<3 {
                DispatchQueue.global().async(group: group) { [self] in
                    for _ in 0..<3 { increment() }
                }
            }
            increment()
            group.notify(queue: .main) { task.invalidate() }
        }
    }
}

/// Records samples from three global-queue blocks while the app is in the background, holding a
/// background task (and declaring the work) until all three are done. A sample goes to `buffer` under `lock` when `try()`
/// gets it, else to `overflow`.
final class SampleRecorder: Workload, @unchecked Sendable {
    enum Overflow {
        case unguarded
        case guarded
    }

    private let overflowKind: Overflow
    private let lock = NSLock()
    private let overflowLock = NSLock()
    private var buffer: [Int] = []  // under `lock`
    private var overflow: [Int] = []  // under `overflowLock` (the buggy twin: nothing)
    private var observation: LifecycleObservation?
    /// Samples that went to the overflow list, for the test (read after the run).
    private(set) var fallbacks = 0

    init(overflow: Overflow) { overflowKind = overflow }

    private func record(_ sample: Int) {
        if lock.try() {
            buffer.append(sample)
            lock.unlock()
            return
        }
        switch overflowKind {
        case .unguarded:
            overflow.append(sample)
            fallbacks += 1
        case .guarded:
            overflowLock.withLock {
                overflow.append(sample)
                fallbacks += 1
            }
        }
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let work = context.startWork("samples")
            let task = BackgroundTaskToken(name: "samples", host: app) { work.cancel() }
            let group = DispatchGroup()
            for worker in 0..<3 {
                DispatchQueue.global().async(group: group) { [self] in
                    for sample in 0..<3 { record(worker * 10 + sample) }
                }
            }
            group.notify(queue: .main) {
                if !work.isDone { work.finish() }
                task.invalidate()
            }
        }
    }
}
