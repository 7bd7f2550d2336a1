@_spi(ExperimentalCustomExecutors) import _Concurrency
import Synchronization
import ThreadSanitizerSupport

/// Which live run a task job belongs to, written into the job itself, so that a task of a run
/// resumed from a real thread (a continuation resumed on an SDK's own dispatch queue) is
/// recognised when it reaches the process's executors, reported as an escape of its run, and
/// kept out of the real executors.
///
/// ```swift
/// RunJobStamps.stamp(job, serial: serial)      // every task job the ledger takes into a run
/// if case .live(let state) = RunJobStamps.owner(of: job) {  // from a thread outside every run
///     state.recordForeign("a task of the run resumed from a real thread")
/// }
/// ```
///
/// How: the job header's `Reserved` word (see `Layout`) gets the run's serial (high 32 bits)
/// and the task's id (low 32 bits). Each new task starts with that word null, and the id must
/// match too, so a new task in a freed task's memory never passes for a run's. The executors'
/// own private words (`withUnsafeExecutorPrivateData`) would be the supported place, but the
/// runtime clears them between a job's runs (measured on Swift 6.3), so they cannot carry the
/// stamp across a suspension. Linux on 64-bit only, after a one-time check of the layout;
/// elsewhere tasks are not stamped, and a plain task resumed by a real thread goes unseen.
///
/// Contract: ``stamp(_:serial:)`` only on the run's thread; ``owner(of:)`` from any thread, one
/// atomic load in a process where no run used Swift concurrency; runs register in
/// ``Scheduler/enableAsync(taskWidth:mainQueue:)`` and leave in ``Scheduler/releaseAsync()``.
/// Serials grow (wrapping after 2^32 runs), so a stamp of an ended run is told from no stamp.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
enum RunJobStamps {
    /// The live runs by serial.
    private static let live = Mutex<(next: UInt32, runs: [UInt32: AsyncState])>((1, [:]))
    /// Whether any run registered in this process (the fast path of ``owner(of:)``).
    private static let everRegistered = Atomic<Bool>(false)

    /// Registers a run's async state; returns its serial (never 0).
    static func register(_ state: AsyncState) -> UInt32 {
        let serial = live.withAnnotatedLock { table in
            var serial = table.next
            while serial == 0 || table.runs[serial] != nil { serial &+= 1 }
            table.next = serial &+ 1
            table.runs[serial] = state
            return serial
        }
        everRegistered.store(true, ordering: .releasing)
        return serial
    }

    /// Forgets a run (its jobs are never stamped again).
    static func unregister(_ serial: UInt32) {
        _ = live.withAnnotatedLock { $0.runs.removeValue(forKey: serial) }
    }

    /// Writes the run's stamp into a task job (not into other kinds of job). Returns the task's
    /// address when it had no stamp of this run before (its first job in the run: a new task),
    /// else nil.
    @discardableResult
    static func stamp(_ job: UnownedJob, serial: UInt32) -> UInt? {
        guard let header = taskHeader(of: job) else { return nil }
        let id = header.load(fromByteOffset: Layout.id, as: UInt32.self)
        let stamp = UInt64(serial) << 32 | UInt64(id)
        guard header.load(fromByteOffset: Layout.reserved, as: UInt64.self) != stamp else { return nil }
        header.storeBytes(of: stamp, toByteOffset: Layout.reserved, as: UInt64.self)
        return UInt(bitPattern: header)
    }

    /// Whether `job` is a task's, not one of the runtime's own jobs (an actor's turn, an
    /// isolated deinit). Read from the job's flags (`ExecutorJob.kind`).
    static func isTask(_ job: UnownedJob) -> Bool {
        ExecutorJob(job).kind == .task
    }

    /// Whose task a job is, by its stamp.
    enum Owner {
        /// Not a run's task: the platform's executors take it.
        case none
        /// A task of a live run: reported as that run's escape and not let in.
        case live(AsyncState)
        /// A task of a run that has ended: never run again (as every task a run abandons).
        case ended
    }

    /// Whose task `job` is, by its stamp.
    static func owner(of job: UnownedJob) -> Owner {
        guard everRegistered.load(ordering: .acquiring), let header = taskHeader(of: job) else { return .none }
        let stamp = header.load(fromByteOffset: Layout.reserved, as: UInt64.self)
        let id = header.load(fromByteOffset: Layout.id, as: UInt32.self)
        guard stamp != 0, UInt32(truncatingIfNeeded: stamp) == id else { return .none }
        let serial = UInt32(truncatingIfNeeded: stamp >> 32)
        return live.withAnnotatedLock { table in
            if let state = table.runs[serial] { return .live(state) }
            return serial != 0 && serial < table.next ? .ended : .none
        }
    }

    /// Offsets in Swift's job header on 64-bit platforms (`swift/ABI/Task.h`): the heap object
    /// (2 words), `SchedulerPrivate` (2 words), `Flags` (32 bits), `Id` (32 bits), `Voucher`
    /// (1 word), `Reserved` (1 word, "reserved for future use", set to null by the job's
    /// constructor and untouched by the runtime; the runtime does clear `SchedulerPrivate`
    /// between a job's runs, which is why the stamp is not kept there).
    private enum Layout {
        static let id = 36
        static let reserved = 48
    }

    /// The header of a task job, where the layout above is known to hold (checked once, against
    /// the id the runtime prints for the first job), else nil.
    private static func taskHeader(of job: UnownedJob) -> UnsafeMutableRawPointer? {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            guard ExecutorJob(job).kind == .task else { return nil }
            let header = unsafeBitCast(job, to: UnsafeMutableRawPointer.self)
            switch layoutChecked.load(ordering: .acquiring) {
            case 1: return header
            case 2: return nil
            default:
                let id = header.load(fromByteOffset: Layout.id, as: UInt32.self)
                let holds = job.description == "UnownedJob(id: \(id))"
                layoutChecked.store(holds ? 1 : 2, ordering: .releasing)
                return holds ? header : nil
            }
        #else
            return nil  // not checked on this platform's runtime: a run's tasks are not stamped
        #endif
    }

    /// 0: not checked yet; 1: the layout holds; 2: it does not (stamping is off).
    private static let layoutChecked = Atomic<Int>(0)

    /// Keeps a run's task out of the real executors when it comes from a thread outside every
    /// run: a live run records the escape (its task stays suspended); an ended run's task is
    /// dropped. False for every other job.
    static func keepsOut(_ job: UnownedJob, what: String) -> Bool {
        switch owner(of: job) {
        case .none:
            return false
        case .live(let state):
            state.recordForeign("\(what) of the run resumed (or cancelled) by a real thread")
            return true
        case .ended:
            return true
        }
    }
}
