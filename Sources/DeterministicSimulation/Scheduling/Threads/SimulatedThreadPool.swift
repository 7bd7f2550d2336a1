import Dispatch
import Foundation

/// Real OS threads that carry simulated threads, reused across runs: the only place the engine
/// hands control between OS threads.
///
/// ```swift
/// let pool = SimulatedThreadPool()              // one per campaign worker
/// for runSeed in runSeeds {
///     let scheduler = Scheduler(choices: ChoiceSource(seed: runSeed))
///     scheduler.enableControlledConcurrency(.randomWalk(preemptionRate: 0.05), pool: pool)
///     // ... build the world, run it ...
///     scheduler.discardPendingJobs()             // unwinds suspended threads; they return here
/// }
/// ```
///
/// The baton: exactly one OS thread of a run executes simulation code at a time. A thread gives
/// the baton away with ``PoolWorker/handOff(to:)``: it signals the receiver's semaphore, then
/// waits on its own. Each semaphore is waited on only by its owner and signalled by whoever holds
/// the baton, so it is never contended (ThreadSanitizer sees a clean happens-before edge; a
/// contended `Synchronization.Mutex` gave it false positives). The semaphore signal/wait pair is
/// also the memory barrier that makes one holder's writes visible to the next: the scheduler's
/// state needs no lock, because it is only ever touched by the holder.
///
/// Lifetime: a pool belongs to whatever runs runs one after another (a campaign worker thread,
/// or a test). It is lent to one scheduler at a time (a second one traps), from
/// ``Scheduler/enableControlledConcurrency(_:pool:defersPreemption:)`` until that scheduler's threads are
/// unwound (``Scheduler/discardPendingJobs(rounds:)`` or its deinit). Threads are created on
/// demand, never more than the most simulated threads one run had in progress at once plus one,
/// and parked between runs; they exit when the pool is released (all must be idle then).
/// ``forCurrentThread`` gives each OS thread its own pool, released when that thread exits.
///
/// Cost (measured on the 2-core Linux machine, see the ControlledConcurrency article): a handoff
/// is 3-12 µs; a parked thread holds its stack (``stackSize``, untouched pages are not resident)
/// plus about 10 kB.
public final class SimulatedThreadPool: @unchecked Sendable {
    // @unchecked Sendable: `idle`, `all` and `lentTo` are touched only by the thread holding the
    // baton of the run the pool is lent to, or by the owner while no run holds it; the baton's
    // semaphores order those accesses.

    /// The stack size of each pool thread, in bytes.
    public let stackSize: Int
    /// Parked threads, most recently used last (reused first: its stack is warm).
    var idle: [PoolWorker] = []
    /// Every thread made, for the count and for exit.
    private var all: [PoolWorker] = []
    /// The scheduler currently using the pool, if any (identity only).
    var lentTo: ObjectIdentifier?
    /// Where the pool's threads and the run's driver run (``CPUPlacement``).
    private var placement = CPUPlacement()

    /// Creates an empty pool; threads are made when a run first needs them.
    ///
    /// ```swift
    /// let pool = SimulatedThreadPool(stackSize: 128 << 10)
    /// ```
    ///
    /// - Parameter stackSize: bytes per thread, at least 64 KiB; 256 KiB by default (simulated
    ///   jobs run the whole scheduler loop and the workload on it).
    public init(stackSize: Int = 256 << 10) {
        self.stackSize = max(stackSize, 64 << 10)
    }

    /// The number of OS threads the pool has made (parked or carrying a simulated thread).
    public var threadCount: Int { all.count }

    /// The number of threads parked, free for the next job.
    public var idleCount: Int { idle.count }

    /// Takes a parked thread, making one if none is free.
    func takeIdle() -> PoolWorker {
        if let worker = idle.popLast() { return worker }
        let worker = PoolWorker(number: all.count)
        all.append(worker)
        worker.start(stackSize: stackSize)
        placement.place(worker)
        return worker
    }

    /// Keeps the calling driver and the pool's threads on the driver's CPU until
    /// ``endPinnedRun()`` (see ``CPUPlacement``; changes speed, never results).
    func beginPinnedRun() {
        placement.begin(workers: all)
    }

    /// Lets the driver move again after ``beginPinnedRun()``.
    func endPinnedRun() {
        placement.end()
    }

    deinit {
        precondition(
            idle.count == all.count,
            "SimulatedThreadPool released while \(all.count - idle.count) threads carry a run: "
                + "call discardPendingJobs() on the run's scheduler first")
        for worker in all { worker.exit() }
    }
}

/// One OS thread of a ``SimulatedThreadPool``, with the semaphore it parks on.
///
/// A worker is either parked in its main loop (idle: woken with an ``assignment``), holding the
/// baton, or parked inside a suspended simulated job (woken by ``handOff(to:)`` from whoever
/// resumes that job). Both parks wait on the same ``wake`` semaphore: a worker is never in both.
final class PoolWorker: @unchecked Sendable {
    // @unchecked Sendable: `assignment` is written by the baton holder before it signals `wake`
    // and read by this worker after its wait returns: the semaphore orders the two.

    /// What an idle worker does when woken.
    enum Assignment {
        /// Run a controller's loop, starting with this decision.
        case loop(ThreadController, ThreadController.Decision)
        /// Leave the main loop; the thread ends.
        case exit
    }

    let number: Int
    let wake = DispatchSemaphore(value: 0)  // tidy: allow the baton: order is decided by the scheduler
    private let exited = DispatchSemaphore(value: 0)  // tidy: allow joins the thread at pool exit
    var assignment: Assignment?

    init(number: Int) {
        self.number = number
    }

    func start(stackSize: Int) {
        let crashSlot = CrashSignals.currentSlotToken  // a crash here names the worker's run
        let thread = Thread { [self] in
            CrashSignals.prepareThread(inheriting: crashSlot)
            #if canImport(Glibc)
                threadID = LinuxAffinityCalls.shared?.threadID() ?? 0
            #endif
            exited.signal()  // started: `threadID` is set
            mainLoop()
            exited.signal()
        }
        thread.name = "sim-thread-\(number)"
        thread.stackSize = stackSize
        thread.start()
        exited.wait()
    }

    #if canImport(Glibc)
        /// The thread's kernel id, set by the thread itself before ``start(stackSize:)`` returns
        /// (0 where it is unknown: never pinned).
        private var threadID: pid_t = 0

        /// Lets the thread run only on `cpu` (``CPUPlacement``).
        func pin(to cpu: Int32) {
            guard threadID != 0, let calls = LinuxAffinityCalls.shared else { return }
            var mask = CPUPlacement.mask(cpu)
            _ = calls.setAffinity(threadID, MemoryLayout<cpu_set_t>.size, &mask)
        }
    #endif

    private func mainLoop() {
        while true {
            wake.wait()
            guard let work = assignment else { preconditionFailure("pool thread woken with nothing to do") }
            assignment = nil
            switch work {
            case .loop(let controller, let first): controller.runLoop(on: self, first: first)
            case .exit: return
            }
        }
    }

    /// Gives the baton to `other` (a parked worker or a driver) and parks until someone gives it
    /// back. Nothing shared may be touched between the signal and the wait.
    @inline(__always)
    func handOff(to other: DispatchSemaphore) {  // tidy: allow the baton handoff
        other.signal()
        wake.wait()
    }

    /// Ends an idle worker's thread and waits for it to leave its loop.
    func exit() {
        assignment = .exit
        wake.signal()
        exited.wait()
    }
}

extension SimulatedThreadPool {
    /// The pool of the calling OS thread, made on first use and released (its threads ended)
    /// when that thread exits: one pool per campaign worker without passing it around.
    ///
    /// ```swift
    /// scheduler.enableControlledConcurrency(configuration, pool: .forCurrentThread)
    /// ```
    public static var forCurrentThread: SimulatedThreadPool {
        let key = ThreadLocalPoolKey.key
        if let existing = pthread_getspecific(key) {
            return Unmanaged<SimulatedThreadPool>.fromOpaque(existing).takeUnretainedValue()
        }
        let pool = SimulatedThreadPool()
        pthread_setspecific(key, Unmanaged.passRetained(pool).toOpaque())
        return pool
    }
}

/// The pthread key of ``SimulatedThreadPool/forCurrentThread``: created once per process (an
/// immutable global), whose destructor releases the exiting thread's pool.
private enum ThreadLocalPoolKey {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
            let status = pthread_key_create(&key) { pointer in
                Unmanaged<SimulatedThreadPool>.fromOpaque(pointer).release()
            }
        #else
            let status = pthread_key_create(&key) { pointer in
                guard let pointer else { return }
                Unmanaged<SimulatedThreadPool>.fromOpaque(pointer).release()
            }
        #endif
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}
