import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// App code written with GCD runs inside a run: `DispatchQueue.main`, the global queues and the
/// app's own queues are the process's simulated queues (SimulatedApplication+RealDispatch), with
/// GCD's semantics where code can tell: a serial queue runs one block at a time, `asyncAfter`
/// runs at its virtual deadline, a group's `notify` waits for its work, `sync` and
/// `dispatchPrecondition` agree with each other. The GCD catalogue family's planted P4 is found
/// and its twin holds; every result replays.
@Suite(.enabled(if: VirtualClocks.isSupported))
struct RealDispatchTests {
    /// One run of `workload`, with simulated threads (the default environment).
    /// `sharesState` false: the workload's probe counts what its blocks do without a lock, on
    /// purpose (a data race on a device, which `no-data-race` would report); the test is about
    /// Dispatch's semantics.
    static func run(_ name: String, seed: UInt64, usesAsync: Bool = false, sharesState: Bool = true,
                    environment: EnvironmentConfig = EnvironmentConfig(),
                    _ make: @escaping @Sendable () -> any Workload) -> RunOutcome {
        let spec = RunSpec(profile: .ios17, environment: environment,
                           workload: WorkloadInfo(name: name, summary: name, usesAsync: usesAsync,
                                                  sharesState: sharesState, make: make),
                           invariants: Invariant.all, horizon: .seconds(600))
        return SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(seed)), keepTrace: true)
    }

    @Test("blocks sent to a serial DispatchQueue of the app's never overlap; on the global queue they do")
    func serialQueueRunsOneBlockAtATime() {
        var overlapsOnGlobal = 0
        var ranOnSerial = 0
        for seed in 1...40 as ClosedRange<UInt64> {
            let serial = OverlapProbe()
            let outcome = Self.run("serial", seed: seed) { OverlappingBlocks(probe: serial, serial: true) }
            #expect(outcome.violations.isEmpty, "\(outcome.violations)")
            #expect(serial.processes.allSatisfy { $0.overlaps == 0 }, "seed \(seed): a serial queue ran two blocks at once")
            ranOnSerial += serial.processes.reduce(0) { $0 + $1.ran }
            let global = OverlapProbe()
            _ = Self.run("global", seed: seed) { OverlappingBlocks(probe: global, serial: false) }
            overlapsOnGlobal += global.processes.reduce(0) { $0 + $1.overlaps }
        }
        #expect(ranOnSerial >= 40 * 8, "\(ranOnSerial) blocks ran")
        #expect(overlapsOnGlobal > 0, "the probe must see overlap where GCD allows it, or it proves nothing")
    }

    @Test("an app's concurrent queue runs blocks at once; a barrier waits for the blocks before it and runs alone")
    func concurrentQueueKeepsItsBarriers() {
        var overlaps = 0
        var syncReads = 0
        for seed in 1...30 as ClosedRange<UInt64> {
            let probe = BarrierProbe()
            let outcome = Self.run("barrier", seed: seed, sharesState: false) { ReaderWriterCache(probe: probe) }
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations)")
            for process in probe.processes {
                #expect(process.barrierWrongs == 0, "seed \(seed): a barrier overlapped another block")
                #expect(process.lateEarly == 0, "seed \(seed): a block sent after the barrier ran before it")
                overlaps += process.overlaps
                syncReads += process.syncReads
            }
        }
        #expect(overlaps > 0, "blocks of a concurrent queue never ran at once")
        #expect(syncReads >= 30, "\(syncReads) sync reads")
    }

    @Test("an OperationQueue of uploads with a dependent completion, cancelled by the expiration handler, holds every invariant")
    func operationQueueRunsAsWritten() {
        let info = WorkloadInfo(name: "operation-queue", summary: "uploads as operations") { OperationQueueUploads() }
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: info,
                           invariants: Invariant.all, horizon: .seconds(1_800))
        for index in 0..<150 {
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(0x0b5).derive(index: UInt64(index))))
            #expect(outcome.violations.isEmpty, "run \(index): \(outcome.violations.map(\.message))")
        }
    }

    @Test("asyncAfter runs at its deadline on the virtual clock, DispatchTime and Date reading the same time")
    func asyncAfterRunsAtTheVirtualDeadline() {
        let probe = DelayProbe()
        let outcome = Self.run("after", seed: 7, sharesState: false) { DelayedFlush(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        #expect(!probe.delays.isEmpty)
        // Never early; exactly on time unless the app was suspended meanwhile (its queues wait).
        for delay in probe.delays {
            #expect(delay.measured > delay.asked - 0.000_002, "asked \(delay.asked) s, ran after \(delay.measured) s")
        }
        #expect(probe.delays.contains { abs($0.measured - $0.asked) < 0.000_002 }, "\(probe.delays)")
    }

    @Test("a group's notify runs once every block sent with async(group:) has run, and wait() returns then too")
    func groupNotifyWaitsForItsWork() {
        var notified = 0
        var waited = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            let probe = GroupProbe()
            let outcome = Self.run("group", seed: seed, sharesState: false) { GroupedUploads(probe: probe) }
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations)")
            #expect(probe.early == 0, "seed \(seed): notify or wait came before the group's work")
            // A batch the app's suspension or a kill cut short is never notified (nor on a device).
            notified += probe.notified
            waited += probe.waited
        }
        #expect(notified >= 20 && waited >= 20, "\(notified) notifications, \(waited) waits")
    }

    @Test("dispatchPrecondition holds on the queue's own jobs, inside sync onto it and on main for main; not elsewhere")
    func preconditionsAgreeWithTheQueues() {
        let probe = PreconditionProbe()
        let outcome = Self.run("precondition", seed: 11, sharesState: false) { PreconditionedSync(probe: probe) }
        // A failed dispatchPrecondition stops the process: reaching the end is the check.
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        #expect(probe.checks >= 5, "\(probe.checks) checks ran")
    }

    @Test("a queue made with target: .main runs its blocks on the main queue")
    func targetQueueFollowsItsTarget() {
        let probe = MainProbe()
        let outcome = Self.run("target", seed: 5) { TargetedQueue(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        #expect(probe.onMain > 0 && probe.offMain == 0, "on main \(probe.onMain), off main \(probe.offMain)")
    }

    @Test("concurrentPerform runs every iteration on the calling simulated thread before it returns")
    func concurrentPerformStaysOnTheCaller() {
        let probe = MainProbe()
        let outcome = Self.run("perform", seed: 4) { ConcurrentPerformer(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        #expect(probe.onMain >= 8 && probe.offMain == 0, "on main \(probe.onMain), elsewhere \(probe.offMain)")
    }

    @Test("Thread.isMainThread is true on the simulated main thread and false on the run's other threads")
    func isMainThreadFollowsTheSimulatedMainThread() {
        let probe = MainProbe()
        let outcome = Self.run("main-thread", seed: 6) { MainThreadChecks(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        #expect(probe.onMain >= 3 && probe.offMain == 0, "right \(probe.onMain), wrong \(probe.offMain)")
    }

    @Test("a lock held across DispatchQueue.main.sync while main takes it: the deadlock is reported, and the run ends cleanly")
    func lockHeldAcrossMainSyncDeadlocks() throws {
        // Once the deadlock stops the run, its end unwinds the global thread's `sync`, whose
        // block then runs in place; Swift 6 isolates that closure to the main actor, and its
        // check trapped there (the test process ended with the finding unreported).
        var found: Violation?
        for seed in 1...40 as ClosedRange<UInt64> where found == nil {
            found = Self.run("lock-sync", seed: seed) { LockHeldAcrossMainSync() }.violations.first { $0.invariant == "no-deadlock" }
        }
        let message = try #require(found?.message, "no run deadlocked")
        #expect(message.contains(#"waits for sync on queue"#), "\(message)")
        #expect(message.contains(#"waits for lock "NSLock or pthread mutex #1""#), "\(message)")
    }

    @Test("a cancelled DispatchWorkItem never runs; its notify runs inside the run")
    func workItemsCancelAndNotify() {
        let probe = DebounceProbe()
        for seed in 1...5 as ClosedRange<UInt64> {
            let outcome = Self.run("debounce", seed: seed) { DebouncedSave(probe: probe) }
            #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        }
        // Of each three, the last one runs (unless the run ends or the app is frozen first).
        #expect(probe.scheduled >= 30 && probe.ran > 0 && probe.ran * 3 <= probe.scheduled, "\(probe.ran) of \(probe.scheduled)")
        #expect(probe.notified > probe.ran && probe.outsideTheRun == 0, "\(probe.notified), \(probe.outsideTheRun) outside")
    }

    @Test("the GCD family: P4 is found, its twin holds, and the same seed gives the same trace")
    func gcdFamilyIsJudgedAndReplays() throws {
        let planted = try #require(WorkloadCatalog.variant(workload: "gcd-photo-sync", variant: "ends-unconditionally"))
        let correct = try #require(WorkloadCatalog.variant(workload: "gcd-photo-sync", variant: "correct"))
        #expect(try InvariantCanFailTests.violations(of: "no-double-end", in: planted.info.name, runs: 30) > 0)
        #expect(try InvariantCanFailTests.violations(of: "no-double-end", in: correct.info.name, runs: 60) == 0)
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: correct.info,
                           invariants: Invariant.all, horizon: .seconds(1_800))
        let first = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(0x6cd)))
        let second = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(0x6cd)))
        #expect(first.digest == second.digest && first.eventCount == second.eventCount)
    }

    @Test("a DispatchSourceTimer fires on its queue at its virtual deadlines, repeating; suspend holds it; cancel ends it")
    func timerSourcesFireOnVirtualTime() {
        // Resumed at launch, every 2 s from 1 s: 1, 3, 5; suspended over 6-9.5 s (the fires at 7
        // and 9 are held and merged into one at the resume); then 11, 13, and cancelled in the
        // fire at 13. A process the environment sends home meanwhile is suspended, and its fires
        // wait for it (never early); a preempted thread may start up to 0.1 s late.
        var onTime = 0
        for seed in 1...10 as ClosedRange<UInt64> {
            let probe = TimerProbe()
            let outcome = Self.run("timer", seed: seed) { RepeatingTimer(probe: probe) }
            #expect(outcome.violations.isEmpty, "\(outcome.violations)")
            for process in probe.processes {
                let ideal: [Double] = [1, 3, 5, 9.5, 11, 13]
                #expect(zip(process.fires, ideal).allSatisfy { $0 >= $1 }, "seed \(seed): early: \(process.fires)")
                #expect(process.fires.count <= ideal.count, "seed \(seed): fired after its cancel: \(process.fires)")
                if process.fires.count == ideal.count, zip(process.fires, ideal).allSatisfy({ $0 - $1 <= 0.1 }) {
                    onTime += 1
                    #expect(process.cancelled.count == 1 && process.isCancelledAfter == true, "seed \(seed)")
                }
            }
        }
        #expect(onTime > 0, "no process ran the timeline undisturbed")
    }

    @Test("a timer made with no queue fires on the global queue, as Dispatch's default target")
    func timerWithoutQueueFiresOffMain() {
        let probe = MainProbe()
        let outcome = Self.run("default-timer", seed: 2) { DefaultQueueTimer(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        #expect(probe.offMain > 0 && probe.onMain == 0, "global \(probe.offMain), main \(probe.onMain)")
    }

    @Test("with Swift concurrency on, a DispatchSource other than a timer started in a run is a named escape")
    func aSourceIsAnEscape() throws {
        let outcome = Self.run("source", seed: 3, usesAsync: true) { DataSourceFlush() }
        let escape = try #require(outcome.firstViolation(of: "no-async-escape"), "\(outcome.violations)")
        #expect(escape.message.contains("a DispatchSource started inside the run (dispatch_resume)"), "\(escape.message)")
    }
}

// MARK: App-style workloads (GCD only, plus the workload context for what they record)

/// Counts blocks and overlaps per process: a block that starts while another of the same
/// process is inside is an overlap (a killed process's block stays inside forever).
final class OverlapProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    final class Process: @unchecked Sendable {
        var inside = 0
        var overlaps = 0
        var ran = 0
    }
    var processes: [Process] = []
}

/// On each background entry, eight blocks that each block for a while, sent from main and from a
/// global block to the app's serial queue (or to the global queue).
final class OverlappingBlocks: Workload, @unchecked Sendable {
    private let probe: OverlapProbe
    private let queue: DispatchQueue
    private var observation: LifecycleObservation?
    private var sent = false

    init(probe: OverlapProbe, serial: Bool) {
        self.probe = probe
        queue = serial ? DispatchQueue(label: "probe.serial") : DispatchQueue.global()
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            guard !sent else { return }
            sent = true
            let token = BackgroundTaskToken(name: "probe", host: app) {}
            let probe = OverlapProbe.Process()
            self.probe.processes.append(probe)
            let queue = queue
            let block: @Sendable () -> Void = {
                probe.inside += 1
                if probe.inside > 1 { probe.overlaps += 1 }
                app.performBlockingWork(for: .milliseconds(50))
                probe.inside -= 1
                probe.ran += 1
            }
            for _ in 0..<4 { queue.async(execute: block) }
            DispatchQueue.global().async {
                for _ in 0..<4 { queue.async(execute: block) }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 5) { token.invalidate() }
        }
    }
}

final class DelayProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    var delays: [(asked: Double, measured: Double)] = []
}

/// Flushes after a drawn delay with `asyncAfter(deadline:)` and measures when it ran.
final class DelayedFlush: Workload, @unchecked Sendable {
    private let probe: DelayProbe
    private var observation: LifecycleObservation?

    init(probe: DelayProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let probe = probe
        observation = context.onDidEnterBackground {
            let seconds = Double(context.drawInt(in: 1...9)) / 4
            let start = DispatchTime.now()
            let startDate = Date()
            DispatchQueue.global().asyncAfter(deadline: start + seconds) {
                let measured = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                precondition(abs(Date().timeIntervalSince(startDate) - measured) < 0.000_002)
                probe.delays.append((seconds, measured))
            }
        }
    }
}

final class GroupProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    var entries = 0
    var notified = 0
    var waited = 0
    var early = 0
}

/// Three uploads in a group on each background entry; `notify` on main ends the task, and a
/// global block waits for the same group.
final class GroupedUploads: Workload, @unchecked Sendable {
    private let probe: GroupProbe
    private var observation: LifecycleObservation?

    init(probe: GroupProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let probe = probe
        observation = context.onDidEnterBackground {
            guard probe.entries == probe.notified else { return }  // one batch at a time
            probe.entries += 1
            let token = BackgroundTaskToken(name: "uploads", host: app) {}
            let group = DispatchGroup()
            let done = Counter()
            for _ in 0..<3 {
                DispatchQueue.global().async(group: group) {
                    app.performBlockingWork(for: context.drawDuration(in: .milliseconds(100) ... .seconds(2)))
                    done.value += 1
                }
            }
            DispatchQueue.global().async {
                // Given up only when the run ends first (its frozen work never leaves).
                guard group.wait(timeout: .distantFuture) == .success else { return }
                if done.value != 3 { probe.early += 1 }
                probe.waited += 1
            }
            group.notify(queue: .main) {
                if done.value != 3 { probe.early += 1 }
                probe.notified += 1
                token.invalidate()
            }
        }
    }
}

final class Counter: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    var value = 0
}

final class PreconditionProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    var checks = 0
}

/// `dispatchPrecondition` where GCD says it holds: on main for main, in the app's queue's own
/// blocks, inside `sync` onto it from main (run on main's thread), and `.notOnQueue` elsewhere.
final class PreconditionedSync: Workload, @unchecked Sendable {
    private let probe: PreconditionProbe
    private let store = DispatchQueue(label: "probe.store")
    private var observation: LifecycleObservation?

    init(probe: PreconditionProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let probe = probe
        let store = store
        observation = context.onDidEnterBackground {
            dispatchPrecondition(condition: .onQueue(.main))
            dispatchPrecondition(condition: .notOnQueue(store))
            store.sync {
                dispatchPrecondition(condition: .onQueue(store))
                probe.checks += 1
            }
            store.async {
                dispatchPrecondition(condition: .onQueue(store))
                dispatchPrecondition(condition: .notOnQueue(.main))
                probe.checks += 1
                DispatchQueue.main.sync {
                    dispatchPrecondition(condition: .onQueue(.main))
                    dispatchPrecondition(condition: .notOnQueue(store))
                    probe.checks += 1
                }
            }
            DispatchQueue.global().async {
                dispatchPrecondition(condition: .notOnQueue(.main))
                store.sync { dispatchPrecondition(condition: .onQueue(store)) }
                probe.checks += 1
            }
            probe.checks += 1
        }
    }
}

final class MainProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    var onMain = 0
    var offMain = 0
}

/// A queue that targets the main queue: its blocks run on main.
final class TargetedQueue: Workload, @unchecked Sendable {
    private let probe: MainProbe
    private let queue = DispatchQueue(label: "probe.ui", target: .main)
    private var observation: LifecycleObservation?

    init(probe: MainProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let probe = probe
        let queue = queue
        observation = context.onDidEnterBackground {
            DispatchQueue.global().async {
                queue.async {
                    if app.isMainThread { probe.onMain += 1 } else { probe.offMain += 1 }
                }
            }
        }
    }
}

/// Flushes when a `DispatchSourceUserDataAdd` fires: its handler would run on a real thread.
final class DataSourceFlush: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?
    private var sources: [any DispatchSourceUserDataAdd] = []

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in
            let source = DispatchSource.makeUserDataAddSource(queue: .main)
            source.setEventHandler {}
            source.resume()
            source.add(data: 1)
            sources.append(source)
        }
    }
}

final class TimerProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    final class Process: @unchecked Sendable {
        var fires: [Double] = []
        var cancelled: [Double] = []
        var isCancelledAfter: Bool?
    }
    var processes: [Process] = []
}

/// At launch (the app stays in the foreground: the environment's first action comes later), a
/// repeating timer on a serial queue of the app's: every 2 s from 1 s, suspended from 6 s to
/// 9.5 s, cancelled after its fire at 13 s. Times are seconds from the start, read with `Date()`.
final class RepeatingTimer: Workload, @unchecked Sendable {
    private let probe: TimerProbe
    private let queue = DispatchQueue(label: "probe.timer")

    init(probe: TimerProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = TimerProbe.Process()
        probe.processes.append(mine)
        Self.startTimer(on: queue, probe: mine)
    }

    /// Not main-actor isolated: the handlers run on `queue` (made in an `@MainActor` method, they
    /// would be main-actor closures, and Swift 6 traps when one runs off the main thread).
    /// The timer stays alive through its own handler's capture, as a fire-and-forget one does.
    private nonisolated static func startTimer(on queue: DispatchQueue, probe: TimerProbe.Process) {
        let start = Date()
        let elapsed = { (Date().timeIntervalSince(start) * 1_000).rounded() / 1_000 }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: .seconds(2))
        timer.setEventHandler {
            dispatchPrecondition(condition: .onQueue(queue))
            probe.fires.append(elapsed())
            if elapsed() >= 13 { timer.cancel() }
        }
        timer.setCancelHandler {
            probe.cancelled.append(elapsed())
            probe.isCancelledAfter = timer.isCancelled
        }
        timer.resume()
        let held = TimerBox(timer)
        queue.asyncAfter(deadline: .now() + 6) { held.timer.suspend() }
        queue.asyncAfter(deadline: .now() + 9.5) { held.timer.resume() }
    }
}

/// A timer handed to work on its own queue.
final class TimerBox: @unchecked Sendable {
    // @unchecked: the timer is used on its queue only.
    let timer: any DispatchSourceTimer
    init(_ timer: any DispatchSourceTimer) { self.timer = timer }
}

/// `DispatchQueue.concurrentPerform` on each background entry: every iteration runs, on the
/// calling simulated thread (the main queue here), before it returns.
final class ConcurrentPerformer: Workload, @unchecked Sendable {
    private let probe: MainProbe
    private var observation: LifecycleObservation?

    init(probe: MainProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let probe = probe
        observation = context.onDidEnterBackground {
            let before = probe.onMain
            let lock = NSLock()  // the iterations may run at once on a device: the counts are shared
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let onMain = app.isMainThread
                lock.withLock { if onMain { probe.onMain += 1 } else { probe.offMain += 1 } }
            }
            precondition(probe.onMain == before + 8, "concurrentPerform returned before its iterations ran")
        }
    }
}

/// A cache an `NSLock` guards: a global block fills it and, still holding the lock, shows its
/// size on main with `DispatchQueue.main.sync`; main reads the cache under the same lock.
final class LockHeldAcrossMainSync: Workload, @unchecked Sendable {
    private let lock = NSLock()
    private var cache: [String: Int] = [:]
    private var shown = 0

    func didFinishLaunching(_ context: WorkloadContext) {
        DispatchQueue.global().async { [self] in
            lock.lock()
            cache["items"] = 3
            DispatchQueue.main.sync { shown = cache.count }
            lock.unlock()
        }
        DispatchQueue.main.async { [self] in
            lock.lock()
            shown = cache.count
            lock.unlock()
        }
    }
}

/// `Thread.isMainThread` where app code asks it: in the lifecycle callback (main), on the global
/// queue, and back on `DispatchQueue.main`.
final class MainThreadChecks: Workload, @unchecked Sendable {
    private let probe: MainProbe
    private var observation: LifecycleObservation?

    init(probe: MainProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let probe = probe
        observation = context.onDidEnterBackground {
            if Thread.isMainThread { probe.onMain += 1 } else { probe.offMain += 1 }
            DispatchQueue.global().async {
                if Thread.isMainThread { probe.offMain += 1 } else { probe.onMain += 1 }
                DispatchQueue.main.async {
                    if Thread.isMainThread { probe.onMain += 1 } else { probe.offMain += 1 }
                }
            }
        }
    }
}

final class DebounceProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    var scheduled = 0
    var ran = 0
    var notified = 0
    var outsideTheRun = 0
}

/// The debounce pattern: each background entry schedules a save three times, cancelling the
/// pending `DispatchWorkItem` each time; a `notify` follows every item.
final class DebouncedSave: Workload, @unchecked Sendable {
    private let probe: DebounceProbe
    private var observation: LifecycleObservation?
    private var pending: DispatchWorkItem?

    init(probe: DebounceProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in
            let probe = probe
            for _ in 0..<3 {
                pending?.cancel()
                let item = DispatchWorkItem { probe.ran += 1 }
                item.notify(queue: .main) {
                    probe.notified += 1
                    // Virtual time inside a run: 2026-01-01 plus the run's seconds.
                    if Date().timeIntervalSince1970 > 1_780_000_000 { probe.outsideTheRun += 1 }
                }
                pending = item
                probe.scheduled += 1
                DispatchQueue.main.asyncAfter(deadline: .now() + 0.5, execute: item)
            }
        }
    }
}

final class BarrierProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    final class Process: @unchecked Sendable {
        var inside = 0
        var overlaps = 0
        var barrierInside = false
        var barrierWrongs = 0
        var barrierDone = false
        var lateEarly = 0
        var syncReads = 0
    }
    var processes: [Process] = []
}

/// The reader-writer pattern on a concurrent queue of the app's: three blocks, a barrier write,
/// three more blocks, and `sync` reads from main and from the global queue.
final class ReaderWriterCache: Workload, @unchecked Sendable {
    private let probe: BarrierProbe
    private let queue = DispatchQueue(label: "probe.cache", attributes: .concurrent)
    private var observation: LifecycleObservation?
    private var sent = false

    init(probe: BarrierProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let queue = queue
        observation = context.onDidEnterBackground { [self] in
            guard !sent else { return }
            sent = true
            let mine = BarrierProbe.Process()
            probe.processes.append(mine)
            let token = BackgroundTaskToken(name: "cache", host: app) {}
            let read: @Sendable () -> Void = {
                mine.inside += 1
                if mine.inside > 1 { mine.overlaps += 1 }
                if mine.barrierInside { mine.barrierWrongs += 1 }
                app.performBlockingWork(for: .milliseconds(50))
                mine.inside -= 1
            }
            for _ in 0..<3 { queue.async(execute: read) }
            queue.async(flags: .barrier) {
                if mine.inside != 0 { mine.barrierWrongs += 1 }
                mine.barrierInside = true
                app.performBlockingWork(for: .milliseconds(50))
                mine.barrierInside = false
                mine.barrierDone = true
            }
            for _ in 0..<3 {
                queue.async {
                    if !mine.barrierDone { mine.lateEarly += 1 }
                    read()
                }
            }
            // The order of `sync` blocks is not checked: one still waiting when the run ends (the
            // app frozen meanwhile) runs in place at teardown, after the verdict.
            queue.sync { mine.syncReads += 1 }
            DispatchQueue.global().async {
                queue.sync { mine.syncReads += 1 }
                queue.sync(flags: .barrier) { mine.syncReads += 1 }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 5) { token.invalidate() }
        }
    }
}

/// Uploads as `BlockOperation`s on an `OperationQueue` (two at a time), a completion operation
/// that depends on them and ends the task on main, and an expiration handler that cancels them
/// all: the common shape, correct on iOS.
final class OperationQueueUploads: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?
    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        queue.name = "uploads"
        return queue
    }()
    private var taskID = BackgroundTaskIdentifier.invalid

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            guard taskID == .invalid else { return }
            let works = (0..<4).map { context.startWork("upload-\($0)") }
            let queue = queue
            taskID = app.beginBackgroundTask(withName: "uploads") { [self] in
                queue.cancelAllOperations()
                works.forEach { $0.cancel() }
                endTask(app)
            }
            guard taskID != .invalid else { return works.forEach { $0.cancel() } }
            let id = taskID
            let uploads = works.map { work in
                BlockOperation {
                    app.performBlockingWork(for: context.drawWorkDuration())
                    work.finish()
                }
            }
            let done = BlockOperation {
                DispatchQueue.main.async { [self] in if taskID == id { endTask(app) } }
            }
            uploads.forEach { done.addDependency($0) }
            queue.addOperations(uploads + [done], waitUntilFinished: false)
        }
    }

    private func endTask(_ app: SimulatedApplication) {
        guard taskID != .invalid else { return }
        app.endBackgroundTask(taskID)
        taskID = .invalid
    }
}

/// A one-shot timer made with no queue (Dispatch's default: the global queue) half a second
/// after launch.
final class DefaultQueueTimer: Workload, @unchecked Sendable {
    private let probe: MainProbe

    init(probe: MainProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        Self.start(probe: probe)
    }

    private nonisolated static func start(probe: MainProbe) {
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: .now() + 0.5)
        timer.setEventHandler {
            if Thread.isMainThread { probe.onMain += 1 } else { probe.offMain += 1 }
            timer.cancel()
        }
        timer.resume()
    }
}
