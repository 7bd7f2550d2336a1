import Dispatch
import Foundation
import Synchronization
import SimulationRuntime

/// The carriers of simulated threads, reused across runs: the only place the engine hands
/// control from one simulated job's stack to another's.
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
/// The baton: exactly one stack of a run executes simulation code at a time. A worker gives the
/// baton away with ``PoolWorker/handOff(to:)``. What a worker is depends on ``carriers``:
/// - ``Carriers/fibers`` (the default where supported): a stack of its own on the run's OS thread
///   (`Fiber` (SimulationRuntime)); a handoff is a user-space stack switch of a few nanoseconds, and the whole run
///   stays on one OS thread.
/// - ``Carriers/osThreads``: a real OS thread parked on a semaphore; a handoff signals the
///   receiver's semaphore and waits on its own (a futex wake and a context switch, 3-12 µs).
///   Each semaphore is waited on only by its owner and signalled by whoever holds the baton, so
///   it is never contended, and the signal/wait pair is the memory barrier that makes one
///   holder's writes visible to the next (ThreadSanitizer sees a clean happens-before edge).
///   Used where fibers are not sound: runs with Swift tasks (a task's current-task slot is
///   thread-local and is not switched with a fiber), sanitizer builds, other architectures.
/// Either way the scheduler's state needs no lock: only the baton holder touches it.
///
/// Lifetime: a pool belongs to whatever runs runs one after another (a campaign worker thread,
/// or a test). It is lent to one scheduler at a time (a second one traps), from
/// ``Scheduler/enableControlledConcurrency(_:pool:)`` until that scheduler's threads are
/// unwound (``Scheduler/discardPendingJobs(rounds:)`` or its deinit). Workers are created on
/// demand, never more than the most simulated threads one run had in progress at once plus one,
/// and parked between runs; they end when the pool is released (all must be idle then).
/// ``forCurrentThread`` gives each OS thread its own pool, released when that thread exits.
///
/// Cost (measured on the 2-core Linux machine, see the ControlledConcurrency article): a fiber
/// switch is a few nanoseconds and a thread handoff 3-12 µs; a parked worker holds its stack
/// (``stackSize``, untouched pages are not resident) plus, for an OS thread, about 10 kB.
public final class SimulatedThreadPool: @unchecked Sendable {
    // @unchecked Sendable: `idle`, `all` and `lentTo` are touched only by the holder of the baton
    // of the run the pool is lent to, or by the owner while no run holds it; the baton (one OS
    // thread for fibers, the semaphores for OS threads) orders those accesses.

    /// What carries a pool's simulated threads.
    public enum Carriers: Sendable, Equatable {
        /// Stacks of their own on the run's OS thread, switched in user space (fast).
        case fibers
        /// Real OS threads handing a baton over semaphores (works everywhere).
        case osThreads

        /// Fibers where this build supports them (x86-64 Linux, arm64 Linux and Darwin, without a sanitizer) unless the
        /// environment variable `BGSIM_CARRIERS` is `threads` or ``preferOSThreads(_:)`` asked for
        /// OS threads; OS threads otherwise. Changes speed, never results.
        public static var preferred: Carriers {
            osThreadsPreferred.load(ordering: .relaxed) ? .osThreads : environmentPreferred
        }

        /// Makes the pools made from now on (each campaign worker makes its own) use OS threads
        /// (`true`) whatever `BGSIM_CARRIERS` says, or the preferred carriers again (`false`): for
        /// a benchmark that compares the two in one process.
        ///
        /// ```swift
        /// SimulatedThreadPool.Carriers.preferOSThreads(true)
        /// defer { SimulatedThreadPool.Carriers.preferOSThreads(false) }
        /// let result = Campaign.run(target, options: options)   // its workers hand a baton between OS threads
        /// ```
        ///
        /// Contract: process-wide; pools already made keep their carriers. Changes speed, never results.
        public static func preferOSThreads(_ prefer: Bool) {
            osThreadsPreferred.store(prefer, ordering: .relaxed)
        }

        /// What the build and `BGSIM_CARRIERS` prefer, read once.
        private static let environmentPreferred: Carriers = {
            guard Fiber.isSupported else { return .osThreads }
            if let value = ProcessInfo.processInfo.environment["BGSIM_CARRIERS"], value == "threads" { return .osThreads }
            return .fibers
        }()

        private static let osThreadsPreferred = Atomic<Bool>(false)
    }

    /// The stack size of each worker, in bytes.
    public let stackSize: Int
    /// What carries the simulated threads.
    public let carriers: Carriers
    /// Parked workers, most recently used last (reused first: its stack is warm). Unchecked: only
    /// the baton holder touches it (see above), once or twice per handoff, and its dynamic checks
    /// were about 1% of a run that hands off often (chat-outbox).
    @exclusivity(unchecked) var idle: [PoolWorker] = []
    /// Every worker made, for the count and for exit.
    private var all: [PoolWorker] = []
    /// Workers left inside a job that is never resumed (``retire(_:)``): kept, never reused.
    private var retired: [PoolWorker] = []
    /// The scheduler currently using the pool, if any (identity only).
    var lentTo: ObjectIdentifier?
    /// Where the pool's threads and the run's driver run (`CPUPlacement` (SimulationRuntime); OS threads only).
    private var placement = CPUPlacement()
    /// The pool of OS threads that runs this pool's runs that need them (Swift tasks), made on
    /// first use; the pool itself when it carries OS threads.
    private var osThreadPool: SimulatedThreadPool?

    /// Creates an empty pool; workers are made when a run first needs them.
    ///
    /// ```swift
    /// let pool = SimulatedThreadPool(stackSize: 128 << 10)
    /// let threads = SimulatedThreadPool(carriers: .osThreads)
    /// ```
    ///
    /// - Parameters:
    ///   - stackSize: bytes per worker, at least 64 KiB; 256 KiB by default (simulated jobs run
    ///     the whole scheduler loop and the workload on it).
    ///   - carriers: fibers or OS threads; ``Carriers/preferred`` by default. Fibers fall back to
    ///     OS threads where this build cannot switch stacks.
    public init(stackSize: Int = 256 << 10, carriers: Carriers = .preferred) {
        self.stackSize = max(stackSize, 64 << 10)
        self.carriers = Fiber.isSupported ? carriers : .osThreads
    }

    /// Whether this build can carry simulated threads on fibers (x86-64 Linux, arm64 Linux and Darwin, without a
    /// sanitizer); where it cannot, a pool asked for fibers carries OS threads.
    package static var fibersAreSupported: Bool { Fiber.isSupported }

    /// The number of workers the pool has made (parked or carrying a simulated thread).
    package var threadCount: Int { all.count }

    /// The number of workers parked, free for the next job.
    package var idleCount: Int { idle.count }

    /// This pool if it carries OS threads, otherwise a pool of OS threads it keeps for runs that
    /// need them (made on first use, released with this one).
    var withOSThreads: SimulatedThreadPool {
        if carriers == .osThreads { return self }
        if let osThreadPool { return osThreadPool }
        let pool = SimulatedThreadPool(stackSize: stackSize, carriers: .osThreads)
        osThreadPool = pool
        return pool
    }

    /// The number of workers retired inside a job given up.
    package var retiredCount: Int { retired.count }

    /// Takes `worker`, which carries a job that is never resumed (given up while a run's end
    /// unwinds it), out of the pool: never reused, not waited for at exit. Its stack stays (a
    /// fiber's, with the job's frames; an OS thread stays parked), and so does what those frames
    /// hold.
    func retire(_ worker: PoolWorker) {
        guard let index = all.firstIndex(where: { $0 === worker }) else { return }
        all.remove(at: index)
        retired.append(worker)
    }

    /// Takes a parked worker, making one if none is free.
    func takeIdle() -> PoolWorker {
        if let worker = idle.popLast() { return worker }
        let worker = PoolWorker(number: all.count + retired.count)
        all.append(worker)
        switch carriers {
        case .fibers:
            worker.startFiber(stackSize: stackSize)
        case .osThreads:
            worker.startThread(stackSize: stackSize)
            placement.place(worker.threadID)
        }
        return worker
    }

    /// A worker standing for the OS thread that drives a run (it has no stack of its own).
    func makeDriverWorker() -> PoolWorker {
        let driver = PoolWorker(number: -1)
        driver.carrier.becomeDriver(withFiber: carriers == .fibers)
        return driver
    }

    /// Keeps the calling driver and the pool's threads on the driver's CPU until
    /// ``endPinnedRun()`` (see `CPUPlacement` (SimulationRuntime); changes speed, never results). Fibers never leave
    /// the driver's OS thread: nothing to do.
    func beginPinnedRun() {
        if carriers == .osThreads { placement.begin(threads: all.lazy.map(\.threadID)) }
    }

    /// Lets the driver move again after ``beginPinnedRun()``.
    func endPinnedRun() {
        if carriers == .osThreads { placement.end() }
    }

    deinit {
        precondition(
            idle.count == all.count,
            "SimulatedThreadPool released while \(all.count - idle.count) workers carry a run: "
                + "call discardPendingJobs() on the run's scheduler first")
        for worker in all { worker.exit() }
    }
}

/// One worker of a ``SimulatedThreadPool``: a `Carrier` (SimulationRuntime: an OS thread with
/// the semaphore it parks on, or a fiber) and what it runs.
///
/// A worker is either parked in its main loop (idle: woken with an ``assignment``), holding the
/// baton, or parked inside a suspended simulated job (woken by ``handOff(to:)`` from whoever
/// resumes that job). Both parks are the same kind of wait: a worker is never in both.
final class PoolWorker: @unchecked Sendable {
    // @unchecked Sendable: `assignment` is written by the baton holder before it hands the baton
    // to this worker and read by this worker afterwards: the handoff orders the two.

    /// What an idle worker does when woken.
    enum Assignment {
        /// Run a controller's loop, starting with this decision. Unretained: the controller's
        /// scheduler is running (it owns the controller), and a strong reference cost a retain and
        /// a release per loop handed on.
        case loop(Unretained<ThreadController>, ThreadController.Decision)
        /// Leave the main loop; the worker ends.
        case exit
    }

    let number: Int
    /// The stack the worker's jobs run on, and the baton.
    let carrier = Carrier()
    var assignment: Assignment?

    init(number: Int) {
        self.number = number
    }

    /// Whether the worker is a fiber.
    var carriesFiber: Bool { carrier.isFiber }
    /// The thread's kernel id, for `CPUPlacement` (0 for fibers and where unknown).
    var threadID: pid_t { carrier.threadID }

    /// Starts the worker as an OS thread parked in its main loop.
    func startThread(stackSize: Int) {
        let crashSlot = CrashSignals.currentSlotToken  // a crash here names the worker's run
        carrier.startThread(named: "sim-thread-\(number)", stackSize: stackSize,
                            prepare: { CrashSignals.prepareThread(inheriting: crashSlot) },
                            body: { [unowned self] in mainLoop(startsWoken: false) })
    }

    /// Makes the worker a fiber whose first handoff to it enters its main loop, woken.
    func startFiber(stackSize: Int) {
        carrier.startFiber(stackSize: stackSize) { [unowned self] in mainLoop(startsWoken: true) }
    }

    /// Waits for assignments and carries them out; a loop hands the baton on when it ends, and
    /// this worker parks until it is handed the baton again.
    private func mainLoop(startsWoken: Bool) {
        var woken = startsWoken
        while true {
            if !woken { carrier.park() }
            woken = false
            guard let work = assignment.take() else { preconditionFailure("pool worker woken with nothing to do") }
            switch work {
            case .loop(let controller, let first):
                let next = controller.call { $0.runLoop(on: self, first: first) }
                handOff(to: next)
                woken = true
            case .exit:
                return
            }
        }
    }

    /// Gives the baton to `other` (a parked worker or a driver) and parks until someone gives it
    /// back. Nothing shared may be touched between the two.
    @inline(__always)
    func handOff(to other: PoolWorker) {
        carrier.handOff(to: other.carrier)
    }

    /// ``handOff(to:)`` between two workers named unretained (a suspended simulated thread's
    /// worker and the one resuming it): no reference count changes hands.
    @inline(__always)
    static func handOff(from current: Unretained<PoolWorker>, to next: Unretained<PoolWorker>) {
        current.call { worker in next.call { other in worker.handOff(to: other) } }
    }

    /// Ends an idle worker and waits for it to leave its loop.
    func exit() {
        assignment = .exit
        carrier.stop()
    }
}

extension SimulatedThreadPool {
    /// The pool of the calling OS thread, made on first use and released (its threads ended)
    /// when that thread exits: one pool per campaign worker without passing it around.
    ///
    /// ```swift
    /// scheduler.enableControlledConcurrency(configuration, pool: .forCurrentThread)
    /// ```
    public static var forCurrentThread: SimulatedThreadPool { perThread.current }

    /// Each OS thread's pool (the runtime room's `PerThreadObject`: released when the thread exits).
    private static let perThread = PerThreadObject { SimulatedThreadPool() }
}
