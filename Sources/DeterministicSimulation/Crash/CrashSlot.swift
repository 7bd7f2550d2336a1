#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationRuntime
import Synchronization

/// One campaign worker's record of the run it is executing, kept where a signal handler can read
/// it: a preallocated text buffer holding the banner of the worker's campaign with the current
/// run's seed written in, plus atomics saying whether a run is in progress and which one.
///
/// ```swift
/// let slot = CrashSlot.claim(banner)     // the worker thread, once: formats the banner
/// defer { slot?.release() }
/// for runSeed in seeds {
///     slot?.begin(runSeed)               // 16 hex digits per placeholder, two atomic stores
///     _ = target.run(choices: ChoiceSource(seed: runSeed), keepTrace: false)
///     slot?.end()
/// }
/// ```
///
/// Why slots and not a formatted string per run: a signal handler may not allocate, lock or
/// call into the Swift runtime's formatting, so the text must already be bytes in memory that
/// never moves (libFuzzer does the same). Why a fixed table: the handler must find the crashing
/// run without a lock. The table has ``count`` slots, made once and never freed.
///
/// How the handler finds the slot of the crashing thread: the claiming thread stores the slot's
/// index under a pthread key (``CrashSignals``); threads that carry the worker's simulated
/// threads copy it when they are made (``CrashSignals/prepareThread(inheriting:)``). Reading a
/// pthread key is not on POSIX's list of async-signal-safe calls, but glibc and Darwin implement
/// `pthread_getspecific` as a plain read of the thread's control block (no lock, no allocation),
/// which is what sanitizer runtimes rely on in their handlers too. A crash on a thread with no
/// slot prints every run in progress instead.
///
/// Contract: ``begin(_:)`` and ``end()`` are called by the owning thread only; the handler and
/// the hang watchdog only read. Cost per run: the hex digits and two relaxed/release stores.
package final class CrashSlot: @unchecked Sendable {
    // @unchecked: `banner`, `harnessText`, `seedOffsets` and `owner` are written by the owner thread
    // before it publishes them with a release store of `generation`/`running`/`inHarness`;
    // readers load those first.

    /// How many slots exist: more workers than this run without a slot (a crash on one of them
    /// prints every run in progress).
    public static let count = 256
    /// Bytes of banner text per slot; longer text is cut.
    public static let capacity = 8_192

    /// The slot's position in the table (stored, plus one, under the thread key).
    public let index: Int
    /// The banner text (the runtime room's `SignalSafeText`).
    let banner = SignalSafeText(capacity: CrashSlot.capacity)
    /// Where each `{seed}` placeholder's 18 characters start in ``banner``.
    private var seedOffsets: [Int] = []
    /// Claimed by a worker.
    let claimed = Atomic<Bool>(false)
    /// A run is in progress.
    let running = Atomic<Bool>(false)
    /// Counts runs begun (the watchdog's way to tell a long run from many short ones).
    let generation = Atomic<UInt64>(0)
    /// Counts the scheduler's steps (jobs started, threads resumed) on this slot's runs: the
    /// watchdog's way to tell a slow run that makes progress from a stuck one. Written by the run's
    /// thread of the moment with relaxed stores (``noteProgress()``), read by the watchdog.
    let progress = Atomic<UInt64>(0)
    /// The choice source of the run in progress, in an isolated worker (the crash handler
    /// writes what it drew to the parent); `nil` otherwise.
    var source: ChoiceSource?
    /// Where the worker's stderr stood when the run in progress began (its file's size): the
    /// crash dump names it, so the parent reads the crash's message from that run's own lines,
    /// never from an earlier run's or a test framework's.
    var stderrOffset = 0
    /// What a fault of bgsim's own code prints while the thread does harness work between runs
    /// (``beginHarness(_:)``).
    let harnessText = SignalSafeText(capacity: CrashSlot.capacity)
    /// The thread does harness work (a failure's follow-up: reruns, shrinking, recording): a fault
    /// while no run is in progress is bgsim's, not the workload's.
    let inHarness = Atomic<Bool>(false)
    /// The thread that claimed the slot, which carries its runs' simulated threads as fibers:
    /// the hang watchdog samples it to name the code a stuck run is in (``StuckCode``).
    var owner: StuckCode.Thread?

    private init(index: Int) {
        self.index = index
    }

    /// The table, made when crash handling is first set up (``CrashSignals/install(exitCode:)``
    /// or ``RunWatchdog``), before any handler can read it.
    static let table: [CrashSlot] = (0..<count).map { CrashSlot(index: $0) }

    /// Whether anything reads slots (a handler or a watchdog is installed); until then
    /// ``claim(_:)`` returns nil and runs pay nothing.
    static let inUse = Atomic<Bool>(false)

    /// Takes a free slot for the calling thread, formats `banner` into it and marks the thread
    /// with it; nil when no handler or watchdog is installed, `banner` is nil, or all are taken.
    public static func claim(_ banner: CrashBanner?) -> CrashSlot? {
        guard let banner, inUse.load(ordering: .acquiring) else { return nil }
        for slot in table where slot.claimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            slot.format(banner)
            slot.owner = .current
            CrashSignals.prepareThread(inheriting: slot.index + 1)
            return slot
        }
        return nil
    }

    /// Gives the slot back; the thread no longer names it.
    public func release() {
        running.store(false, ordering: .releasing)
        inHarness.store(false, ordering: .releasing)
        source = nil
        CrashSignals.prepareThread(inheriting: 0)
        claimed.store(false, ordering: .releasing)
    }

    /// Marks the start of the run with this seed.
    @inline(__always)
    public func begin(_ seed: Seed) {
        for offset in seedOffsets { banner.stampHex(seed.rawValue, at: offset + 2) }  // after "0x"
        generation.wrappingAdd(1, ordering: .releasing)
        running.store(true, ordering: .releasing)
    }

    /// Marks the start of another run of the same seed (a rerun or a shrink candidate): the
    /// watchdog times each separately.
    @inline(__always)
    package func beginAgain() {
        generation.wrappingAdd(1, ordering: .releasing)
        running.store(true, ordering: .releasing)
    }

    /// The slot the calling thread claimed, if any.
    static var current: CrashSlot? {
        let token = CrashSignals.slotToken.value
        return token > 0 && token <= count ? table[token - 1] : nil
    }

    /// The slot whose runs the calling thread's scheduler steps count as progress: ``current``
    /// while anything reads slots, else nil (no lookup at all). A scheduler asks at its `run` or
    /// `step` calls until it has found one, never per job.
    @inline(__always)
    static var progressTarget: Unretained<CrashSlot>? {
        guard inUse.load(ordering: .relaxed), let slot = current else { return nil }
        return Unretained(slot)  // slots are never freed
    }

    /// Counts one step of the run in progress (a job started or a thread resumed): a relaxed
    /// load and store, no read-modify-write, because only the run's thread of the moment writes.
    @inline(__always)
    func noteProgress() {
        progress.store(progress.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// Marks the end of the run begun last.
    @inline(__always)
    public func end() {
        running.store(false, ordering: .releasing)
    }

    /// Marks the start of harness work on this thread (a failure's follow-up), with `text`: what a
    /// fault of bgsim's own code prints until ``endHarness()``, between the handler's first words
    /// (`bgsim: INTERNAL ERROR: fatal signal SIGILL (…)`) and its last line. Runs begun meanwhile
    /// (``beginAgain()``) are still workload code: a fault in one is a crash of the workload.
    ///
    /// ```swift
    /// slot.beginHarness(banner.internalError(seed: seed, invariant: "no-double-end", message: message))
    /// defer { slot.endHarness() }
    /// let shrink = Shrinker.shrink(recorded, target: CrashSlotTarget(target)) { … }
    /// ```
    package func beginHarness(_ text: String) {
        inHarness.store(false, ordering: .releasing)
        harnessText.set(Array(text.utf8))
        generation.wrappingAdd(1, ordering: .releasing)
        inHarness.store(true, ordering: .releasing)
    }

    /// Runs `body` as harness work (``beginHarness(_:)``) on a slot of its own: for bgsim's work
    /// after a campaign (writing its report), so that a fault there is reported as bgsim's own,
    /// never as a crash of workload code. Without crash handling installed it only runs `body`.
    ///
    /// ```swift
    /// try CrashSlot.harnessWork(" while writing the report Reports/p1.json\n") { try write(report) }
    /// ```
    public static func harnessWork<T, E: Error>(_ text: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard let slot = claim(CrashBanner(run: "", replay: "")) else { return try body() }
        defer { slot.release() }
        slot.beginHarness(text)
        return try body()
    }

    /// Marks the end of the harness work begun last.
    package func endHarness() {
        inHarness.store(false, ordering: .releasing)
    }

    /// Writes the banner's template, with `0x` and 16 zeros for each `{seed}`, into ``banner``.
    private func format(_ given: CrashBanner) {
        let pieces = given.template.split(separator: CrashBanner.seedPlaceholder, omittingEmptySubsequences: false)
        var text: [UInt8] = []
        seedOffsets = []
        for (position, piece) in pieces.enumerated() {
            if position > 0 {
                seedOffsets.append(text.count)
                text += Array("0x0000000000000000".utf8)
            }
            text += Array(piece.utf8)
        }
        banner.set(text)
    }
}
