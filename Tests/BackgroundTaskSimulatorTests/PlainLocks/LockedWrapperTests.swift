import BackgroundTaskKit
import BackgroundTaskSimulator
import BackgroundTaskSimulatorTesting
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// A counter behind a lock-per-access property wrapper, as apps write it ("`@Atomic var`"):
/// `remaining -= 1` is a locked read, then a locked write, and two uploads that finish together
/// can both read the same count. App code's own lock acquisitions are points where another
/// simulated thread may run, so the runs interleave between the two and the lost update shows
/// its consequence: the count never reaches zero, the task is held idle until it expires
/// (`no-idle-task`). The same code decrementing inside one lock holds.
@Suite(.enabled(if: Scheduler.seesPlainAccesses && Scheduler.tracksPlainLocks && VirtualClocks.isSupported))
struct LockedWrapperTests {
    static func outcomes(_ decrement: BatchUploader.Decrement, runs: Int) -> [RunOutcome] {
        (0..<UInt64(runs)).map { seed in
            RealDispatchTests.run("batch", seed: 0x10c4 + seed) { BatchUploader(decrement: decrement) }
        }
    }

    @Test("a lost update through a locked wrapper leaves the task held idle; one lock around the decrement holds")
    func lostUpdateIsFoundAndTwinHolds() throws {
        let buggy = Self.outcomes(.wrapperGetThenSet, runs: 200)
        let idle = buggy.filter { $0.violations.contains { $0.invariant == "no-idle-task" } }
        #expect(!idle.isEmpty, "no run lost an update: \(buggy.compactMap(\.violations.first?.message).prefix(3))")
        let others = buggy.flatMap(\.violations).filter { !["no-idle-task", "every-begin-ended"].contains($0.invariant) }
        #expect(others.isEmpty, "\(others.map { "\($0.invariant): \($0.message)" }.prefix(3))")
        for outcome in Self.outcomes(.oneCriticalSection, runs: 200) {
            #expect(outcome.violations.isEmpty, "\(outcome.violations.map { "\($0.invariant): \($0.message)" })")
        }
    }

    @Test("the same lost update through a reader-writer wrapper (a pthread_rwlock_t) is found too")
    func lostUpdateThroughReadWriteLockIsFound() {
        let buggy = Self.outcomes(.readWriteWrapperGetThenSet, runs: 200)
        #expect(buggy.contains { $0.violations.contains { $0.invariant == "no-idle-task" } }, "no run lost an update")
        let others = buggy.flatMap(\.violations).filter { !["no-idle-task", "every-begin-ended"].contains($0.invariant) }
        #expect(others.isEmpty, "\(others.map { "\($0.invariant): \($0.message)" }.prefix(3))")
    }

    @Test("in child test processes, each a fresh process that finds Foundation's lock code anew, the campaign's runs are the same")
    func sameRunsInFreshProcesses() throws {
        let info = WorkloadInfo(name: "photo-batch/locked-wrapper", summary: "counts uploads behind a locked wrapper") {
            BatchUploader(decrement: .wrapperGetThenSet)
        }
        var isolated = WorkloadCampaign(workload: info, runs: 60, seed: Seed(0x10c4))
        isolated.isolation = try .testProcesses()
        let inChildren = isolated.run()  // first: a child serves it here and ends before the next line
        let here = WorkloadCampaign(workload: info, runs: 60, seed: Seed(0x10c4)).run()
        #expect(here.failures.contains { $0.invariant == "no-idle-task" }, "\(here.failures)")
        #expect(inChildren.result.totals == here.result.totals, "the same runs, events and digest")
        #expect(inChildren.failures.map(\.invariant) == here.failures.map(\.invariant))
    }

    @Test("the lost update replays to the same trace")
    func lostUpdateReplays() throws {
        let found = try #require((0..<200 as Range<UInt64>).first { seed in
            !RealDispatchTests.run("batch", seed: 0x10c4 + seed) { BatchUploader(decrement: .wrapperGetThenSet) }
                .violations.isEmpty
        })
        let first = RealDispatchTests.run("batch", seed: 0x10c4 + found) { BatchUploader(decrement: .wrapperGetThenSet) }
        let second = RealDispatchTests.run("batch", seed: 0x10c4 + found) { BatchUploader(decrement: .wrapperGetThenSet) }
        #expect(first.digest == second.digest)
        #expect(first.violations.map(\.message) == second.violations.map(\.message))
    }
}

/// A value behind an `NSLock`, every read and every write under it: each access is safe, a
/// read-modify-write through it is not.
@propertyWrapper
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(wrappedValue: Value) { value = wrappedValue }

    var wrappedValue: Value {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }

    /// Changes the value in one critical section and returns what it became.
    func mutate(_ change: (inout Value) -> Void) -> Value {
        lock.withLock {
            change(&value)
            return value
        }
    }
}

/// A value behind a `pthread_rwlock_t`, read under its read lock and written under its write
/// lock, as reader-writer caches are written.
@propertyWrapper
final class ReadWriteLocked<Value>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    private var value: Value

    init(wrappedValue: Value) {
        value = wrappedValue
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    var wrappedValue: Value {
        get {
            pthread_rwlock_rdlock(lock)
            defer { pthread_rwlock_unlock(lock) }
            return value
        }
        set {
            pthread_rwlock_wrlock(lock)
            defer { pthread_rwlock_unlock(lock) }
            value = newValue
        }
    }
}

/// Uploads a batch of three photos on the global queue when the app moves to the background,
/// under one background task that the last upload to finish ends; the expiration handler cancels
/// the uploads and ends it. Each batch counts its uploads left in a `@Locked` property.
final class BatchUploader: Workload, @unchecked Sendable {
    enum Decrement: Sendable {
        /// `remaining -= 1`, then `remaining == 0`: three locked accesses.
        case wrapperGetThenSet
        /// `_remaining.mutate { $0 -= 1 } == 0`: one.
        case oneCriticalSection
        /// `remaining -= 1` through a `@ReadWriteLocked` count: a read lock, then a write lock.
        case readWriteWrapperGetThenSet
    }

    /// One batch's uploads.
    final class Batch: @unchecked Sendable {
        let decrement: Decrement
        @Locked var remaining: Int
        @ReadWriteLocked var remainingBehindReadWriteLock: Int

        init(uploads: Int, decrement: Decrement) {
            remaining = uploads
            remainingBehindReadWriteLock = uploads
            self.decrement = decrement
        }

        /// Counts one upload done; whether it was the last.
        func uploadFinished() -> Bool {
            switch decrement {
            case .wrapperGetThenSet:
                remaining -= 1
                return remaining == 0
            case .oneCriticalSection:
                return _remaining.mutate { $0 -= 1 } == 0
            case .readWriteWrapperGetThenSet:
                remainingBehindReadWriteLock -= 1
                return remainingBehindReadWriteLock == 0
            }
        }
    }

    let decrement: Decrement
    /// The batch's task; read and written on main only.
    private var taskID = BackgroundTaskIdentifier.invalid
    private var observation: LifecycleObservation?

    init(decrement: Decrement) { self.decrement = decrement }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            guard taskID == .invalid else { return }
            let uploads = (0..<3).map { context.startWork("photo-\($0)") }
            taskID = app.beginBackgroundTask(withName: "photo-batch") { [self] in
                uploads.forEach { $0.cancel() }
                endTask(app)
            }
            guard taskID != .invalid else { return uploads.forEach { $0.cancel() } }
            let id = taskID
            let batch = Batch(uploads: uploads.count, decrement: decrement)
            for work in uploads {
                DispatchQueue.global().async { [self] in
                    app.performBlockingWork(for: .milliseconds(400))
                    work.finish()
                    if batch.uploadFinished() { DispatchQueue.main.async { [self] in if taskID == id { endTask(app) } } }
                }
            }
        }
    }

    private func endTask(_ app: SimulatedApplication) {
        guard taskID != .invalid else { return }
        app.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
