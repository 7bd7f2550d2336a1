#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import SimulationRuntime
import Synchronization

/// The hang watchdog of a campaign without isolation (and of each isolated child): a thread that
/// looks at every ``CrashSlot`` a few times a second, and when one run has made no progress (no
/// scheduler step: no job started, no simulated thread resumed; ``CrashSlot/progress``) for
/// the timeout (wall-clock seconds: an endless loop in workload code never gives control back to
/// the simulator, so virtual time cannot see it), prints that run's seed and replay command and
/// ends the process with the hang exit code. A run that is slow but steps (a long horizon, a
/// loaded machine) is never stopped, however long it takes.
///
/// ```swift
/// RunWatchdog.start(timeoutSeconds: 60, exitCode: 124)   // bgsim fuzz --no-isolate
/// ```
/// prints, for a run stuck in a loop:
/// ```
/// bgsim: HANG: a run made no progress for 60 s of wall-clock time (--run-timeout) during run seed 0x… of scenario …
/// bgsim: replay: bgsim replay Scenarios/….json --seed 0x…
/// bgsim: the run was in closure #1 in Uploader.waitForNetwork(), called from …
/// bgsim: the process ends with exit code 124 (a hang in workload code); with --isolate, …
/// ```
/// The `was in` line names the code the run's thread was in, in three samples of its stack
/// (``StuckCode``); where nothing can be named (``StuckCode`` says when) it is left out.
///
/// Contract: wall-clock time decides only whether the process is stopped, never what a run
/// computes or a campaign reports (runs are timed by the watchdog thread, not by themselves), so
/// determinism is untouched; a timeout far above any single job's time (bgsim: 60 s, where jobs
/// take microseconds) only ever stops a run that would not end. One watchdog per process;
/// starting it again changes the timeout. A timeout of 0 or less pauses it.
package enum RunWatchdog {
    /// The timeout in milliseconds (0: off); the watchdog thread reads it on every look.
    static let timeoutMilliseconds = Atomic<Int>(0)
    static let started = Atomic<Bool>(false)
    /// The exit code after a hang banner; set once before the thread starts.
    nonisolated(unsafe) static var exitCode: Int32 = 124

    /// Starts (or retimes) the watchdog.
    ///
    /// - Parameters:
    ///   - timeoutSeconds: the wall-clock time a run may go without progress; 0 or less turns the
    ///     watchdog off.
    ///   - exitCode: the code the process ends with after a hang banner (bgsim: 124).
    package static func start(timeoutSeconds: Double, exitCode: Int32) {
        let milliseconds = max(0, Int(timeoutSeconds * 1_000))
        if !started.load(ordering: .acquiring) {
            _ = CrashSlot.table
            _ = CrashSignals.slotToken
            self.exitCode = exitCode
        }
        timeoutMilliseconds.store(milliseconds, ordering: .releasing)
        CrashSlot.inUse.store(true, ordering: .releasing)
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { watch() }
        thread.name = "run-watchdog"
        thread.start()
    }

    /// The banner's words around the run's text (``CrashWording``). The watchdog is an ordinary
    /// thread (the stuck one is only spinning), so it may format them when it needs them.
    private static func words(limitMilliseconds: Int) -> (header: [UInt8], trailer: [UInt8]) {
        let wording = CrashWording.current
        return (Array(("\n\(wording.program)\(CrashWording.hangOpening)a run made no progress for "
                    + "\(seconds(limitMilliseconds)) s of wall-clock time\(wording.timeoutNote)").utf8),
                Array(wording.hangLine(exitCode: exitCode).utf8))
    }

    /// The banner's words around a stuck follow-up's text (``CrashSlot/beginHarness(_:)``): the
    /// harness's own code made no progress between two runs for the whole timeout.
    private static func internalWords(limitMilliseconds: Int, exitCode: Int32) -> (header: [UInt8], trailer: [UInt8]) {
        let program = CrashWording.current.program
        return (Array(("\n\(program): INTERNAL ERROR: \(program)'s own code made no progress for "
                    + "\(seconds(limitMilliseconds)) s between two runs").utf8),
                Array(CrashWording.current.internalErrorLine(exitCode: exitCode).utf8))
    }

    /// A limit in whole seconds when it is one (`60`), else with its fraction (`0.5`).
    private static func seconds(_ milliseconds: Int) -> String {
        let seconds = Double(milliseconds) / 1_000
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// Looks at the slots every 50 ms, forever. A slot is timed from the moment its state last
    /// changed: a run begun (its generation), a step of its run (its progress), or harness work
    /// between runs begun or resumed.
    private static func watch() {
        var seen = [(state: UInt64, progress: UInt64, since: UInt64)](repeating: (0, 0, 0), count: CrashSlot.count)
        while true {
            usleep(50_000)  // tidy: allow the watchdog's own pace; it never decides a result
            let limit = timeoutMilliseconds.load(ordering: .acquiring)
            guard limit > 0 else { continue }
            let now = monotonicMilliseconds()
            for slot in CrashSlot.table {
                let running = slot.running.load(ordering: .acquiring)
                let harness = !running && slot.inHarness.load(ordering: .acquiring)
                guard running || harness else {
                    seen[slot.index] = (0, 0, 0)
                    continue
                }
                let state = slot.generation.load(ordering: .acquiring) << 1 | (running ? 1 : 0)
                let progress = slot.progress.load(ordering: .relaxed)
                let last = seen[slot.index]
                if last.state != state || last.progress != progress || last.since == 0 {
                    seen[slot.index] = (state, progress, now)
                } else if now - seen[slot.index].since >= UInt64(limit) {
                    if harness {
                        let code = CrashSignals.state?.internalErrorExitCode ?? 71
                        let (header, trailer) = internalWords(limitMilliseconds: limit, exitCode: code)
                        SignalSafeOutput.write(2, header)
                        slot.harnessText.write(to: 2)
                        SignalSafeOutput.write(2, trailer)
                        _exit(code)
                    }
                    let (header, trailer) = words(limitMilliseconds: limit)
                    let stuck = stuckCode(of: slot)
                    SignalSafeOutput.write(2, header)
                    slot.banner.write(to: 2)
                    if let stuck { SignalSafeOutput.write(2, Array(CrashWording.current.stuckLine(stuck).utf8)) }
                    SignalSafeOutput.write(2, trailer)
                    _exit(exitCode)
                }
            }
        }
    }

    /// The code `slot`'s stuck run is in (``StuckCode``): its owner thread carries the run's
    /// simulated threads when they are fibers; with OS-thread carriers the stuck one may be
    /// another thread, so nothing is named (rather than the wrong code).
    private static func stuckCode(of slot: CrashSlot) -> String? {
        guard SimulatedThreadPool.Carriers.preferred == .fibers, let owner = slot.owner else { return nil }
        return StuckCode.describe(thread: owner, hiddenModules: Scheduler.engineModules)
    }

    /// The monotonic clock in milliseconds (the watchdog's only use of real time).
    private static func monotonicMilliseconds() -> UInt64 {
        // Real on every thread, also inside a run (VirtualClocks): the watchdog times runs from outside.
        RealClock.monotonicNanoseconds() / 1_000_000
    }
}
