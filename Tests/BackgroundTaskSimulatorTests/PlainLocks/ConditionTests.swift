import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Condition variables on a run's simulated threads (plain_conditions.c): an `NSCondition` wait
/// gives its lock back and blocks only the waiting thread, for a signal or broadcast from another
/// simulated thread or until its virtual deadline, as on a device. Before, the real
/// `pthread_cond_wait` stopped the whole run (with fibers its one OS thread waited on itself),
/// and so did Foundation's `waitUntilFinished`, which waits on one.
@Suite(.enabled(if: Scheduler.tracksPlainLocks && VirtualClocks.isSupported))
struct ConditionTests {
    /// No lifecycle event in a run's first 30 s: the app stays in the foreground while its
    /// threads meet, so the timings below are the synchronisation's alone.
    static let quietStart = EnvironmentConfig(gaps: .seconds(30)...(.seconds(90)))

    static func run(_ name: String, seed: UInt64, _ make: @escaping @Sendable () -> any Workload) -> RunOutcome {
        RealDispatchTests.run(name, seed: seed, environment: quietStart, make)
    }

    @Test("a background thread waiting on an NSCondition wakes when main signals it 2 s later; main ran meanwhile")
    func waitWakesOnSignal() {
        let probe = ConditionProbe()
        let outcome = Self.run("condition", seed: 4) { WaitsForMainsSignal(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        let process = probe.processes.first
        #expect(process?.woke.first == 2, "woke at \(String(describing: process?.woke))")
        #expect((process?.mainTicks ?? 0) >= 1, "main never ran while the thread waited")
    }

    @Test("wait(until:) with no signal returns false at its virtual deadline")
    func timedWaitTimesOut() {
        let probe = ConditionProbe()
        let outcome = Self.run("timed", seed: 5) { WaitsUntilADeadline(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        let process = probe.processes.first
        #expect(process?.woke == [1.5], "woke at \(String(describing: process?.woke))")
        #expect(process?.signalled == [false])
    }

    @Test("a signal wakes one waiter, a drawn one; the broadcast wakes the rest")
    func signalWakesOneWaiter() {
        var firstWakers: [Int] = []
        for seed in 1...16 as ClosedRange<UInt64> {
            let probe = ConditionProbe()
            let outcome = Self.run("one", seed: seed) { TwoWaitersOneSignal(probe: probe) }
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.map(\.message))")
            guard let process = probe.processes.first else { continue }
            // One token at 1 s, the second with the broadcast at 3 s; a wait that returned with
            // no token for it (a signal that woke both) would count a third wake-up.
            #expect(process.woke == [1, 3], "seed \(seed): woke at \(process.woke)")
            #expect(process.wakeUps == 2, "seed \(seed): \(process.wakeUps) waits returned")
            if let first = process.wakers.first { firstWakers.append(first) }
        }
        #expect(firstWakers.contains(1) && firstWakers.contains(2), "the first signal always woke the same waiter: \(firstWakers)")
    }

    @Test("addOperations(_:waitUntilFinished: true) on a background thread returns after its operations ran")
    func operationQueueWaitsForItsOperations() {
        let probe = ConditionProbe()
        let outcome = Self.run("operations", seed: 6) { WaitsForOperations(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        let process = probe.processes.first
        #expect(process?.finishedOperations == [3], "\(String(describing: process?.finishedOperations))")
    }

    @Test("main waiting at launch for an operation that syncs onto main: the launch watchdog kills the app (A10.3)")
    func mainWaitingForAnOperationThatNeedsMainIsKilled() throws {
        // Before, the real wait stopped the run; and once the run ended, the operation's
        // `DispatchQueue.main.sync` block, run in place on its thread, failed Swift's main-actor
        // check and ended the test process.
        let outcome = Self.run("deadlock", seed: 8) { WaitsOnMainForAnOperation() }
        let kill = try #require(outcome.violations.first, "no violation")
        #expect(kill.message.contains("launch still running after 20.000001s, over the 20.000000s limit (A10.3)"),
                "\(kill.message)")
    }

    @Test("a notification posted on a background thread to an observer with queue: .main runs it on main before post returns")
    func notificationToTheMainQueueWaitsForItsObserver() {
        // Linux Foundation adds the observer's block to OperationQueue.main and waits with
        // waitUntilAllOperationsAreFinished: an NSCondition wait on each operation.
        let probe = ConditionProbe()
        let outcome = Self.run("notification", seed: 9) { PostsToAMainQueueObserver(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        let process = probe.processes.first
        #expect(process?.observedOnMain == [true], "\(String(describing: process?.observedOnMain))")
        #expect(process?.postReturnedAfterObserver == [true], "\(String(describing: process?.postReturnedAfterObserver))")
    }

    @Test("a waiter nothing signals, still waiting when the run ends, is given up at teardown")
    func waiterLeftAtTheEndIsGivenUp() {
        let pool = SimulatedThreadPool.forCurrentThread
        let before = pool.retiredCount
        let probe = ConditionProbe()
        let outcome = RealDispatchTests.run("forever", seed: 7) { WaitsForever(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        // One waiter per launch of the app, each left waiting when its process died or the run ended.
        #expect(probe.processes.count > 0)
        #expect(pool.retiredCount - before == probe.processes.count, "\(pool.retiredCount - before) threads given up")
    }

    @Test("a run whose threads wait on conditions replays to the same digest")
    func replays() {
        let first = Self.run("one", seed: 0xc0d) { TwoWaitersOneSignal(probe: ConditionProbe()) }
        let second = Self.run("one", seed: 0xc0d) { TwoWaitersOneSignal(probe: ConditionProbe()) }
        #expect(first.digest == second.digest && first.eventCount == second.eventCount)
    }
}

// MARK: App-style workloads (NSCondition, OperationQueue)

final class ConditionProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    final class Process: @unchecked Sendable {
        /// When waits returned (seconds since launch, the run's clock).
        var woke: [Double] = []
        /// What each timed wait returned.
        var signalled: [Bool] = []
        /// Which waiter each wake-up was (1 or 2).
        var wakers: [Int] = []
        /// How many waits returned.
        var wakeUps = 0
        var mainTicks = 0
        var finishedOperations: [Int] = []
        var observedOnMain: [Bool] = []
        var postReturnedAfterObserver: [Bool] = []
    }
    var processes: [Process] = []
}

/// What the workloads below share: their probe, and a record for each process they launch.
class ConditionProbing: @unchecked Sendable {
    // @unchecked: the probe is touched by the run's simulated threads, one at a time.
    let probe: ConditionProbe

    init(probe: ConditionProbe) { self.probe = probe }

    /// A new record for the process being launched.
    func record() -> ConditionProbe.Process {
        let mine = ConditionProbe.Process()
        probe.processes.append(mine)
        return mine
    }
}

/// A global-queue block waits, the documented way, for a flag main sets 2 s after launch.
final class WaitsForMainsSignal: ConditionProbing, Workload, @unchecked Sendable {
    private let condition = NSCondition()
    private var ready = false

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = record()
        let start = Date()
        DispatchQueue.global().async { [self] in
            condition.lock()
            while !ready { condition.wait() }
            condition.unlock()
            mine.woke.append(elapsed(since: start))
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 1) { mine.mainTicks += 1 }
        DispatchQueue.main.asyncAfter(deadline: .now() + 2) { [self] in
            condition.lock()
            ready = true
            condition.signal()
            condition.unlock()
        }
    }
}

/// A global-queue block waits 1.5 s for a signal nobody sends.
final class WaitsUntilADeadline: ConditionProbing, Workload, @unchecked Sendable {
    private let condition = NSCondition()

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = record()
        let start = Date()
        DispatchQueue.global().async { [self] in
            condition.lock()
            let signalled = condition.wait(until: Date().addingTimeInterval(1.5))
            condition.unlock()
            mine.signalled.append(signalled)
            mine.woke.append(elapsed(since: start))
        }
    }
}

/// Two global-queue blocks each wait for a token; main adds one and signals at 1 s, then adds
/// another and broadcasts at 3 s.
final class TwoWaitersOneSignal: ConditionProbing, Workload, @unchecked Sendable {
    private let condition = NSCondition()
    private var tokens = 0

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = record()
        let start = Date()
        for waiter in 1...2 {
            DispatchQueue.global().async { [self] in
                condition.lock()
                while tokens == 0 {
                    condition.wait()
                    mine.wakeUps += 1
                }
                tokens -= 1
                mine.woke.append(elapsed(since: start))  // under the lock: both waiters record
                mine.wakers.append(waiter)
                condition.unlock()
            }
        }
        for (delay, broadcast) in [(1.0, false), (3.0, true)] {
            DispatchQueue.main.asyncAfter(deadline: .now() + delay) { [self] in
                condition.lock()
                tokens += 1
                if broadcast { condition.broadcast() } else { condition.signal() }
                condition.unlock()
            }
        }
    }
}

/// A global-queue block adds three operations to its own queue and waits until they finish.
final class WaitsForOperations: ConditionProbing, Workload, @unchecked Sendable {
    private let queue = OperationQueue()
    private let lock = NSLock()
    private var finished = 0

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = record()
        DispatchQueue.global().async { [self] in
            let operations = (1...3).map { _ in BlockOperation { [self] in lock.withLock { finished += 1 } } }
            queue.addOperations(operations, waitUntilFinished: true)
            mine.finishedOperations.append(lock.withLock { finished })
        }
    }
}

/// At launch main starts an upload operation and waits for it (`waitUntilFinished`, an
/// `NSCondition` wait); the operation reports its progress with `DispatchQueue.main.sync`, which
/// waits for main: on a device the watchdog ends the app.
final class WaitsOnMainForAnOperation: Workload, @unchecked Sendable {
    private let queue = OperationQueue()
    private var progress = 0.0

    func didFinishLaunching(_ context: WorkloadContext) {
        let upload = BlockOperation { [self] in
            DispatchQueue.main.sync { progress = 1 }
        }
        queue.addOperation(upload)
        upload.waitUntilFinished()
    }
}

/// Main observes a notification with `queue: .main`; a global-queue block posts it and reads
/// what the observer did once `post` returns. The observer is removed when it has run (the
/// center is the process's own; `OperationQueue.main`, where its block runs, is the test
/// process's).
final class PostsToAMainQueueObserver: ConditionProbing, Workload, @unchecked Sendable {
    static let name = Notification.Name("ConditionTests.uploadFinished")
    private let lock = NSLock()
    private var observed = false
    private var token: (any NSObjectProtocol)?

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = record()
        let center = NotificationCenter.default
        token = center.addObserver(forName: Self.name, object: self, queue: .main) { [self] _ in
            mine.observedOnMain.append(Thread.isMainThread)
            lock.withLock { observed = true }
            if let token { center.removeObserver(token) }
        }
        DispatchQueue.global().async { [self] in
            center.post(name: Self.name, object: self)
            mine.postReturnedAfterObserver.append(lock.withLock { observed })
        }
    }
}

/// A global-queue block waits for a flag nothing ever sets.
final class WaitsForever: ConditionProbing, Workload, @unchecked Sendable {
    private let condition = NSCondition()
    private var done = false

    func didFinishLaunching(_ context: WorkloadContext) {
        _ = record()
        DispatchQueue.global().async { [self] in
            condition.lock()
            while !done { condition.wait() }
            condition.unlock()
        }
    }
}
