#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationRuntime
import Synchronization

/// The fatal-signal handler: when workload code traps (`fatalError`, `precondition`, a force
/// unwrap of nil, an index out of range: SIGILL or SIGTRAP) or faults (SIGSEGV, SIGBUS, SIGFPE,
/// SIGABRT), it writes which run was in progress and the command that replays it to stderr,
/// then ends the process with a documented exit code. Without it the failure would be lost.
///
/// ```swift
/// CrashSignals.install(exitCode: 70)        // bgsim's main, or a test process, once
/// // … a campaign given a CrashBanner claims a CrashSlot per worker …
/// ```
/// prints, when run seed 0x5d… of the scenario traps:
/// ```
/// Fatal error: Unexpectedly found nil while unwrapping an Optional value     (Swift's own line)
/// bgsim: CRASH: fatal signal SIGILL (a trap: fatalError, precondition, force unwrap of nil, index out of range) during run seed 0x5d… of scenario …
/// bgsim: replay: bgsim replay Scenarios/….json --seed 0x5d…
/// bgsim: the process ends with exit code 70; run with --isolate to go on after a crash
/// ```
///
/// Contract: the handler is async-signal-safe in the way libFuzzer's is: it only reads
/// preallocated memory (``CrashSlot``) and calls `write(2)` and `_exit(2)` (plus
/// `pthread_getspecific`, a plain read on glibc and Darwin, see ``CrashSlot``). It runs on an
/// alternate signal stack where the thread has one (every thread that claims a slot, the
/// installing thread and the simulated-thread pool's threads), so a stack overflow is caught too.
/// A second crash while the banner is being written (another thread) waits a second and exits.
/// In an isolated worker (``dumpDescriptor``) the handler also writes the crashing run's recorded
/// choices to its answer descriptor, for the parent to shrink; that part reads the run's ``ChoiceSource``
/// arrays in place, which is safe because only the crashing thread runs that run.
public enum CrashSignals {
    /// The signals handled, with what they usually mean in Swift code.
    static let signals: [(number: Int32, text: String)] = [
        (SIGILL, "fatal signal SIGILL (a trap: fatalError, precondition, force unwrap of nil, index out of range)"),
        (SIGTRAP, "fatal signal SIGTRAP (a trap: fatalError, precondition, force unwrap of nil, index out of range)"),
        (SIGSEGV, "fatal signal SIGSEGV (a bad memory access, or a stack overflow from endless recursion)"),
        (SIGBUS, "fatal signal SIGBUS (a bad memory access)"),
        (SIGFPE, "fatal signal SIGFPE (an arithmetic fault)"),
        (SIGABRT, "fatal signal SIGABRT (abort)"),
    ]

    /// What the handler needs, made before the handler is installed and never freed.
    struct State {
        var exitCode: Int32
        /// The code after a fault of bgsim's own code (``CrashSlot/beginHarness(_:)``).
        var internalErrorExitCode: Int32
        /// "PROGRAM: CRASH: <signal text>", by signal number (empty for signals not handled).
        var headers: [[UInt8]]
        /// "PROGRAM: INTERNAL ERROR: <signal text>", by signal number.
        var internalHeaders: [[UInt8]]
        var internalTrailer: [UInt8]
        var unknownSignal: [UInt8]
        var outsideRun = Array(" outside any run of a campaign\n".utf8)
        var trailer: [UInt8]
        /// The front end's words (``CrashWording``), also read by the watchdog and isolation.
        var wording: CrashWording
        /// 4 KiB for the choice dump's numbers.
        var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4_096)
    }

    /// Set once by ``install(exitCode:)`` before any handler is; read by handlers afterwards.
    nonisolated(unsafe) static var state: State?
    /// Where an isolated worker's handler also writes the crashing run's choices (its answer
    /// descriptor); nil elsewhere: no dump.
    nonisolated(unsafe) static var dumpDescriptor: Int32?
    /// Set by the first handler to run; later ones wait for it.
    static let entered = Atomic<Bool>(false)

    /// The calling thread's slot index plus one (0: none), readable from the handler.
    static let slotToken = ThreadLocalInteger()

    /// Installs the handler for the fatal signals (process-wide, once; later calls change only
    /// the exit codes and words) and an alternate signal stack on the calling thread.
    ///
    /// A fault while a thread does harness work and no run is in progress on it (a failure's
    /// follow-up, ``CrashSlot/beginHarness(_:)``) is the harness's own: the handler prints
    /// `PROGRAM: INTERNAL ERROR: …`, the failure being followed up and its replay command, and
    /// ends the process with `internalErrorExitCode`, so the finding is never lost.
    ///
    /// - Parameters:
    ///   - exitCode: the code the process ends with after a crash banner (bgsim: 70).
    ///   - wording: the front end's words: the banner lines' program name, the last line's advice.
    ///   - internalErrorExitCode: the code after a fault of the harness's own code (bgsim: 71).
    public static func install(exitCode: Int32, wording: CrashWording = CrashWording(), internalErrorExitCode: Int32 = 71) {
        let program = wording.program
        var headers = [[UInt8]](repeating: [], count: 65)
        var internalHeaders = [[UInt8]](repeating: [], count: 65)
        for (number, text) in signals where Int(number) < headers.count {
            headers[Int(number)] = Array("\n\(program): CRASH: \(text)".utf8)
            internalHeaders[Int(number)] = Array("\n\(program): INTERNAL ERROR: \(text)".utf8)
        }
        let internalTrailer = wording.internalErrorLine(exitCode: internalErrorExitCode)
        let tail = wording.crashLine(exitCode: exitCode)
        _ = CrashSlot.table
        _ = slotToken
        let wasInstalled = state != nil
        state = State(exitCode: exitCode, internalErrorExitCode: internalErrorExitCode, headers: headers,
                      internalHeaders: internalHeaders, internalTrailer: Array(internalTrailer.utf8),
                      unknownSignal: Array("\n\(program): CRASH: fatal signal".utf8), trailer: Array(tail.utf8),
                      wording: wording)
        CrashSlot.inUse.store(true, ordering: .releasing)
        prepareThread(inheriting: currentSlotToken)
        guard !wasInstalled else { return }
        FatalSignals.install(signals.map(\.number), handler: handleFatalSignal)
    }

    /// ``install(exitCode:wording:internalErrorExitCode:)`` unless a handler is installed already
    /// (keeps its exit code and words: the front end's own, in a command-line process).
    public static func installIfNeeded(exitCode: Int32, wording: CrashWording = CrashWording(),
                                       internalErrorExitCode: Int32 = 71) {
        guard state == nil else { return }
        install(exitCode: exitCode, wording: wording, internalErrorExitCode: internalErrorExitCode)
    }

    /// Whether the handler is installed.
    package static var isInstalled: Bool { state != nil }

    /// Waits about `milliseconds` of real time on the calling thread, also when it is a run's
    /// simulated thread: what the handler of a second fatal signal does while the first one
    /// writes its banner (the first ends the process).
    ///
    /// ```swift
    /// CrashSignals.waitRealTime(milliseconds: 1_000)
    /// ```
    ///
    /// Why `poll` and not `sleep`: on a run's simulated thread the runtime shims make `sleep`,
    /// `usleep` and `nanosleep` waits on the run's virtual clock (plain_sleeps.c). From a
    /// handler that called into the engine mid-job and returned at once, so with two workers
    /// crashing together the second ended the process while the first was writing: the banner
    /// stopped after its first line, with no run seed (found by CrashIsolationTests' `--jobs 2`
    /// test, about once in 600 runs under load). Contract: async-signal-safe (`poll` is on
    /// POSIX's list); may return early when a signal interrupts it.
    package static func waitRealTime(milliseconds: Int32) {
        _ = poll(nil, 0, milliseconds)
    }

    /// The code the process ends with after a fault of bgsim's own code (71 unless installed
    /// with another).
    public static var internalErrorExitCode: Int32 { state?.internalErrorExitCode ?? 71 }

    /// The calling thread's slot, as a token for threads it makes (0: none).
    package static var currentSlotToken: Int { slotToken.value }

    /// Gives the calling thread an alternate signal stack (once) and marks it as running the
    /// runs of slot `token` (from ``currentSlotToken`` of the thread that made it; 0: none).
    /// Does nothing until crash handling is installed.
    package static func prepareThread(inheriting token: Int) {
        guard CrashSlot.inUse.load(ordering: .relaxed) else { return }
        slotToken.value = token
        FatalSignals.prepareAlternateStack()
    }
}

/// The handler itself: a C function with no captures.
private func handleFatalSignal(_ signal: Int32) {
    guard let state = CrashSignals.state else { _exit(70) }
    if CrashSignals.entered.exchange(true, ordering: .acquiringAndReleasing) {
        CrashSignals.waitRealTime(milliseconds: 1_000)  // another thread is writing its banner: let it finish
        _exit(state.exitCode)
    }
    if let slot = CrashOutput.harnessSlot() {
        let header = Int(signal) < state.internalHeaders.count ? state.internalHeaders[Int(signal)] : []
        SignalSafeOutput.write(2, header.isEmpty ? state.unknownSignal : header)
        slot.harnessText.write(to: 2)
        SignalSafeOutput.write(2, state.internalTrailer)
        _exit(state.internalErrorExitCode)
    }
    let header = Int(signal) < state.headers.count ? state.headers[Int(signal)] : []
    SignalSafeOutput.write(2, header.isEmpty ? state.unknownSignal : header)
    if CrashOutput.writeRuns(repeating: header.isEmpty ? state.unknownSignal : header) == 0 {
        SignalSafeOutput.write(2, state.outsideRun)
    }
    SignalSafeOutput.write(2, state.trailer)
    if let answers = CrashSignals.dumpDescriptor {
        CrashOutput.dumpChoices(signal: signal, scratch: state.scratch, to: answers)
    }
    _exit(state.exitCode)
}

extension CrashSignals {
    /// Runs `body`, the front end's own work after the runs (writing a report), so that a fault
    /// in it is reported as the harness's internal error with `text`, never as a crash of
    /// workload code (``CrashSlot/harnessWork(_:_:)``).
    ///
    /// ```swift
    /// try CrashSignals.harnessWork(" while writing the report Reports/x.json\n") { try write(report) }
    /// ```
    public static func harnessWork<T, E: Error>(_ text: String, _ body: () throws(E) -> T) throws(E) -> T {
        try CrashSlot.harnessWork(text, body)
    }
}
