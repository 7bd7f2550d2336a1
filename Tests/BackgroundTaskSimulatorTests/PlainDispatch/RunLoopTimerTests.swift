import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Foundation's run-loop `Timer`s and `RunLoop.main.perform` inside a run (run_loop_timers.c): a
/// timer scheduled on the main run loop fires on the simulated main thread at its virtual fire
/// dates, repeating until invalidated, re-scheduled by `fireDate`; one in a mode the main run loop
/// does not run, or on a background thread's run loop (which nothing runs), never fires, as on a
/// device. An app that ends its background task from a main-thread timer holds every invariant;
/// the same app scheduling the timer from a background queue holds an idle task (`no-idle-task`).
@Suite(.enabled(if: VirtualClocks.isSupported))
struct RunLoopTimerTests {
    static func run(_ name: String, seed: UInt64, _ make: @escaping @Sendable () -> any Workload) -> RunOutcome {
        RealDispatchTests.run(name, seed: seed, make)
    }

    @Test("Timer.scheduledTimer on main fires on the main thread every interval until invalidated")
    func repeatingTimerFiresOnMain() {
        // Scheduled at launch every 2 s: fires at 2, 4, 6, 8, 10 and is invalidated in the fire at
        // 10. A process sent home meanwhile is suspended and its fires wait (never early).
        var onTime = 0
        for seed in 1...10 as ClosedRange<UInt64> {
            let probe = RunLoopTimerProbe()
            let outcome = Self.run("run-loop-timer", seed: seed) { RepeatingRunLoopTimer(probe: probe) }
            #expect(outcome.violations.isEmpty, "\(outcome.violations)")
            for process in probe.processes {
                let ideal: [Double] = [2, 4, 6, 8, 10]
                #expect(zip(process.fires, ideal).allSatisfy { $0 >= $1 - 0.000_002 }, "seed \(seed): early: \(process.fires)")
                #expect(process.fires.count <= ideal.count, "seed \(seed): fired after invalidate: \(process.fires)")
                #expect(process.offMain == 0, "seed \(seed): fired off the main thread")
                if process.fires == ideal {
                    onTime += 1
                    #expect(process.validAfter == false, "seed \(seed): still valid after invalidate")
                }
            }
        }
        #expect(onTime > 0, "no process ran the timeline undisturbed")
    }

    @Test("a timer added to RunLoop.main from a background queue fires once on main; fireDate moves it; it is then invalid")
    func oneShotTimerAddedFromBackground() {
        let probe = RunLoopTimerProbe()
        let outcome = Self.run("one-shot", seed: 3) { OneShotRunLoopTimers(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        let process = probe.processes.first
        // Made at 1 s for 3 s later, moved to 6 s later: fires once at 7 s. The other, in the
        // common modes at 1 s for 0.5 s later: fires at 1.5 s.
        #expect(process?.fires == [1.5, 7], "\(String(describing: process?.fires))")
        #expect(process?.offMain == 0)
        #expect(process?.timers.count == 2 && process?.timers.allSatisfy { !$0.isValid } == true,
                "a one-shot timer stays valid after it fired")
    }

    @Test("a timer or block on a background thread's run loop, or in a mode the main run loop does not run, never runs, also after the run")
    func timersNothingRunsNeverFire() {
        let probe = RunLoopTimerProbe()
        let outcome = Self.run("never", seed: 4) { TimersThatNeverFire(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        // The background thread's loop was this OS thread's (fibers): running it now, outside the
        // run, as `Process.waitUntilExit` does, must not fire the run's timer or block (their
        // fire date is long past on the real clock). Added to the real loop, they fired here.
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.1))
        #expect(probe.processes.first?.fires == [], "\(String(describing: probe.processes.first?.fires))")
        #expect(probe.processes.first?.performed == 1, "RunLoop.main.perform ran \(probe.processes.first?.performed ?? 0) times")
    }

    @Test("an app that ends its task from a main-thread Timer holds; scheduling it from a background queue is found (no-idle-task)")
    func gracePeriodTimer() {
        for seed in 1...40 as ClosedRange<UInt64> {
            let outcome = Self.run("grace-main", seed: seed) { GracePeriodUpload(schedulesOnMain: true) }
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.map(\.message))")
        }
        var found = 0
        for seed in 1...40 as ClosedRange<UInt64> {
            let outcome = Self.run("grace-background", seed: seed) { GracePeriodUpload(schedulesOnMain: false) }
            guard outcome.firstViolation(of: "no-idle-task") != nil else { continue }
            found += 1
            #expect(outcome.violations.allSatisfy { $0.invariant == "no-idle-task" }, "\(outcome.violations.map(\.message))")
        }
        #expect(found > 0, "a task held for a timer that never fires was never found")
    }

    @Test("with Swift concurrency on, a Timer made outside the run and added to the main run loop in it is a named escape")
    func timerMadeOutsideIsAnEscape() throws {
        let timer = Timer(fire: Date(timeIntervalSinceNow: 1), interval: 0, repeats: false) { _ in }
        let held = TimerHolder(timer)
        let outcome = RealDispatchTests.run("outside-timer", seed: 3, usesAsync: true) { AddsTimerMadeOutside(held) }
        let escape = try #require(outcome.firstViolation(of: "no-async-escape"), "\(outcome.violations)")
        #expect(escape.message.contains("a run-loop Timer added to the main run loop inside the run (CFRunLoopAddTimer)"),
                "\(escape.message)")
        #expect(timer.isValid, "the timer was not touched")
        // Outside a run `Timer(timeInterval:repeats:block:)` is Foundation's own (the shim lets it through).
        let plain = Timer(timeInterval: 5, repeats: true) { _ in }
        #expect(plain.isValid && plain.timeInterval == 5)
    }

    @Test("a run with run-loop timers replays to the same digest")
    func replays() {
        let make: @Sendable () -> any Workload = { GracePeriodUpload(schedulesOnMain: true) }
        let first = Self.run("grace-main", seed: 0x71e, make)
        let second = Self.run("grace-main", seed: 0x71e, make)
        #expect(first.digest == second.digest && first.eventCount == second.eventCount)
    }
}

// MARK: App-style workloads (Foundation's Timer and RunLoop, plus the workload context for what they record)

final class RunLoopTimerProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    final class Process: @unchecked Sendable {
        var fires: [Double] = []
        var offMain = 0
        var validAfter: Bool?
        var performed = 0
        var timers: [Timer] = []
    }
    var processes: [Process] = []
}

/// Seconds since `start` on the run's clock (`Date()` reads virtual time in a run), to the
/// millisecond: what the app-style workloads of these suites record.
func elapsed(since start: Date) -> Double {
    (Date().timeIntervalSince(start) * 1_000).rounded() / 1_000
}

/// At launch, on the main thread: `Timer.scheduledTimer` every 2 s, invalidated in its fire at 10 s.
final class RepeatingRunLoopTimer: Workload, @unchecked Sendable {
    private let probe: RunLoopTimerProbe

    init(probe: RunLoopTimerProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = RunLoopTimerProbe.Process()
        probe.processes.append(mine)
        let start = Date()
        let timer = Timer.scheduledTimer(withTimeInterval: 2, repeats: true) { timer in
            if !Thread.isMainThread { mine.offMain += 1 }
            mine.fires.append(elapsed(since: start))
            if elapsed(since: start) >= 10 {
                timer.invalidate()
                mine.validAfter = timer.isValid
            }
        }
        timer.tolerance = 0.1
    }
}

/// At 1 s, from a global-queue block: a one-shot timer added to `RunLoop.main` for 3 s later,
/// moved with `fireDate` to 6 s later; and one in the common modes for 0.5 s later.
final class OneShotRunLoopTimers: Workload, @unchecked Sendable {
    private let probe: RunLoopTimerProbe

    init(probe: RunLoopTimerProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = RunLoopTimerProbe.Process()
        probe.processes.append(mine)
        let start = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            let late = Timer(fire: Date(timeIntervalSinceNow: 3), interval: 0, repeats: false) { _ in
                if !Thread.isMainThread { mine.offMain += 1 }
                mine.fires.append(elapsed(since: start))
            }
            mine.timers.append(late)
            RunLoop.main.add(late, forMode: .default)
            late.fireDate = Date(timeIntervalSinceNow: 6)
            // Darwin's `init(timeInterval:repeats:block:)`: first fires an interval after it is made.
            let soon = Timer(timeInterval: 0.5, repeats: false) { _ in
                if !Thread.isMainThread { mine.offMain += 1 }
                mine.fires.append(elapsed(since: start))
            }
            RunLoop.main.add(soon, forMode: .common)
            mine.timers.append(soon)
        }
    }
}

/// Timers nothing runs: one scheduled from a global-queue block (that thread's run loop never
/// runs), one added to the main run loop in a mode of the app's own. And a block performed on
/// the main run loop, which runs.
final class TimersThatNeverFire: Workload, @unchecked Sendable {
    private let probe: RunLoopTimerProbe

    init(probe: RunLoopTimerProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = RunLoopTimerProbe.Process()
        probe.processes.append(mine)
        DispatchQueue.global().async {
            _ = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in mine.fires.append(-1) }
            RunLoop.current.perform { mine.fires.append(-3) }
            let custom = Timer(timeInterval: 1, repeats: true) { _ in mine.fires.append(-2) }
            RunLoop.main.add(custom, forMode: RunLoop.Mode("com.example.sync"))
            RunLoop.main.perform {
                if Thread.isMainThread { mine.performed += 1 }
            }
        }
    }
}

/// A timer made by the test, outside any run.
final class TimerHolder: @unchecked Sendable {
    // @unchecked: handed to one run, which adds it once.
    let timer: Timer
    init(_ timer: Timer) { self.timer = timer }
}

/// Adds a timer made outside the run to the main run loop when the app goes to the background.
final class AddsTimerMadeOutside: Workload, @unchecked Sendable {
    private let held: TimerHolder
    private var observation: LifecycleObservation?

    init(_ held: TimerHolder) { self.held = held }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in RunLoop.main.add(held.timer, forMode: .default) }
    }
}

/// Uploads in the background under a background task and, once the upload is done, ends the task
/// after a one-second grace period with a `Timer` (to let the UI and the store settle). Scheduled
/// on the main thread the timer fires and the task ends. Scheduled from the upload's completion
/// on a global queue (`schedulesOnMain: false`) it lands on that thread's run loop, which never
/// runs: the task is held with nothing to do until it expires (A4.5), a bug a device has too.
final class GracePeriodUpload: Workload, @unchecked Sendable {
    private let schedulesOnMain: Bool
    private var observation: LifecycleObservation?
    private var taskID = BackgroundTaskIdentifier.invalid

    init(schedulesOnMain: Bool) { self.schedulesOnMain = schedulesOnMain }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            guard taskID == .invalid else { return }
            let work = context.startWork("upload")
            taskID = app.beginBackgroundTask(withName: "upload") { [self] in
                work.cancel()
                endTask(app)
            }
            let myID = taskID
            let seconds = context.drawInt(in: 1...8)
            DispatchQueue.global().async { [self] in
                app.performBlockingWork(for: .seconds(seconds))
                DispatchQueue.main.async { work.finish() }
                if schedulesOnMain {
                    DispatchQueue.main.async { [self] in scheduleEnd(of: myID, app) }
                } else {
                    scheduleEnd(of: myID, app)
                }
            }
        }
    }

    /// Ends the task a second from now, unless it already ended (the expiration handler, with a
    /// newer task begun since).
    private func scheduleEnd(of id: BackgroundTaskIdentifier, _ app: SimulatedApplication) {
        _ = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { [self] _ in
            DispatchQueue.main.async { [self] in if taskID == id { endTask(app) } }
        }
    }

    private func endTask(_ app: SimulatedApplication) {
        guard taskID != .invalid else { return }
        app.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
