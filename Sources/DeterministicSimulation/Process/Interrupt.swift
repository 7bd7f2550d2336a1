#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
package import SimulationFormats
import SimulationRuntime
import Synchronization

/// SIGINT and SIGTERM (Ctrl-C, a CI cancel): a campaign stops after the runs in flight, writes
/// what finished (reports marked `"interrupted": true`, the JUnit file, the failure database) and
/// exits 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), however many signals come.
/// The process's side of a front end's campaign: `bgsim` installs it in its `main`; a campaign
/// polls it through ``CampaignPlan/isCancelled``.
///
/// ```swift
/// Interrupt.shared.install()                     // the executable, once
/// interrupt.stopsGracefully()                    // fuzz and check, before their campaigns
/// plan.isCancelled = { interrupt.isRequested }   // the campaign stops after the runs in flight
/// let stop = Interrupt(); stop.request()         // a test: a campaign that is interrupted at once
/// BGSim.run(["fuzz", "--report", path], io: io, interrupt: stop)
/// ```
///
/// Contract (``shared``, once installed):
/// - Before a command calls ``stopsGracefully()`` (loading scenarios, `replay`, `merge`, `list`),
///   a signal ends the process at once with 128 + its number.
/// - After it, every signal in the first ``graceSeconds`` after the first one only asks for the
///   stop (``isRequested``): two or three quick Ctrl-Cs, or `timeout -s INT`, never cost a
///   report. A signal after that (a run in flight that does not end) ends the process at once.
/// - Never in the middle of an output: a signal that would end the process while
///   ``whileWriting(_:)`` runs is recorded, and the process ends right after the file is renamed
///   into place.
/// - The handler is async-signal-safe: atomics, `clock_gettime` and `_exit` only.
///
/// Each instance has its own state; only ``shared`` is connected to the signals.
public final class Interrupt: Sendable {
    /// Signals (or ``request()`` calls) received so far.
    private let requests = Atomic<Int>(0)
    /// The first signal's number; 0 until a signal came (``request()`` sets none).
    private let firstSignal = Atomic<Int32>(0)
    /// When the first signal came, in monotonic milliseconds; 0 until then.
    private let firstMilliseconds = Atomic<Int>(0)
    /// Whether the running command stops gracefully (``stopsGracefully()``).
    private let graceful = Atomic<Bool>(false)
    /// Two counts in one word, so the handler and the writer agree without a lock: the number of
    /// writes in progress times 2, plus 1 when the process is to end as soon as they are done.
    private let writes = Atomic<Int>(0)

    /// How long after the first signal later ones only repeat the request (a stuck stop yields
    /// to a signal after that).
    package static let graceSeconds = 5

    /// The process-wide interrupt, connected to SIGINT and SIGTERM by ``install()``.
    public static let shared = Interrupt()

    /// A flag that only ``request()`` sets.
    public init() {}

    /// Installs the SIGINT and SIGTERM handler on ``shared``, and unblocks both in case the
    /// parent process (a test runner, a CI agent) started us with them blocked.
    public func install() {
        _ = Interrupt.shared
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in [SIGINT, SIGTERM] { sigaddset(&unblock, number) }
        _ = sigprocmask(SIG_UNBLOCK, &unblock, nil)
        for number in [SIGINT, SIGTERM] {
            signal(number) { number in Interrupt.shared.received(number) }
        }
    }

    /// From now on a signal asks the command to stop and write what it has (the command polls
    /// ``isRequested``), instead of ending the process: what `fuzz` and `check` declare before
    /// their first campaign.
    public func stopsGracefully() { graceful.store(true, ordering: .sequentiallyConsistent) }

    /// Asks for a stop, as a first signal does.
    public func request() { _ = requests.add(1, ordering: .sequentiallyConsistent) }

    /// Whether a stop was asked for.
    public var isRequested: Bool { requests.load(ordering: .relaxed) > 0 }

    /// The status a process that was asked to stop ends with: 128 + the first signal's number
    /// (130 for SIGINT, 143 for SIGTERM); 130 when the stop came from ``request()``.
    public var exitStatus: Int32 {
        let number = firstSignal.load(ordering: .sequentiallyConsistent)
        return 128 + (number == 0 ? SIGINT : number)
    }

    /// Runs `write` (one atomic output: a temporary file renamed into place) so that no signal
    /// ends the process in its middle: one that would is recorded, and the process ends with
    /// ``exitStatus`` as soon as the last write in progress is done.
    ///
    /// ```swift
    /// try Interrupt.shared.whileWriting { () throws(OutputError) in try AtomicFile.write(text, to: path) }
    /// ```
    package func whileWriting<T, E: Error>(_ write: () throws(E) -> T) throws(E) -> T {
        _ = writes.add(2, ordering: .sequentiallyConsistent)
        defer {
            if writes.subtract(2, ordering: .sequentiallyConsistent).newValue == 1 { _exit(exitStatus) }
        }
        return try write()
    }

    /// Writes one output atomically (``AtomicFile/write(_:to:)``: a temporary file renamed into
    /// place) inside ``whileWriting(_:)`` of ``shared``, so an interrupted process never leaves a
    /// torn file or a temporary one beside it: every report, JUnit file and saved failure.
    ///
    /// ```swift
    /// try Interrupt.writeAtomically(JSONWriter().string(for: report), to: "Reports/p1.json")
    /// ```
    ///
    /// - Throws: ``OutputError`` when the file cannot be written.
    package static func writeAtomically(_ text: String, to path: String) throws(OutputError) {
        try shared.whileWriting { () throws(OutputError) in try AtomicFile.write(text, to: path) }
    }

    /// The handler's work: count the signal; end the process unless the command stops
    /// gracefully and the signal came within the grace time, or a write is in progress.
    private func received(_ number: Int32) {
        let now = Self.nowMilliseconds()
        if requests.add(1, ordering: .sequentiallyConsistent).oldValue == 0 {
            _ = firstSignal.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
            firstMilliseconds.store(now, ordering: .sequentiallyConsistent)
        }
        if graceful.load(ordering: .sequentiallyConsistent) {
            let first = firstMilliseconds.load(ordering: .sequentiallyConsistent)
            if first == 0 || now - first < Self.graceSeconds * 1_000 { return }
        }
        var state = writes.load(ordering: .sequentiallyConsistent)
        while true {
            if state < 2 { _exit(exitStatus) }  // nothing being written
            let (exchanged, found) = writes.compareExchange(expected: state, desired: state | 1,
                                                            ordering: .sequentiallyConsistent)
            if exchanged { return }  // the writer ends the process after its rename
            state = found
        }
    }

    /// Monotonic milliseconds, never 0 (the real `clock_gettime`, async-signal-safe).
    private static func nowMilliseconds() -> Int {
        // The C library's clock, never a run's virtual time: the signal may arrive on a thread
        // that is running a run (VirtualClocks).
        max(1, Int(RealClock.monotonicNanoseconds() / 1_000_000))
    }
}
