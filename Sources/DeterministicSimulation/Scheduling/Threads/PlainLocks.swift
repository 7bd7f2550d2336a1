import SimulationRuntime

/// The real mutexes app code takes on a run's simulated threads (`NSLock`, `NSRecursiveLock`, a
/// `pthread_mutex_t`) and the real dispatch semaphores and groups it waits on: which simulated
/// thread holds which mutex, so that one simulated thread waiting for another's lock or signal
/// blocks only itself, as an OS thread would on a device.
///
/// ```swift
/// // App code, unchanged: a background upload and the expiration handler on main share a lock.
/// lock.lock()                                  // held by p1.global#1? p1.main blocks here and
/// defer { lock.unlock() }                      // p1.global#1 runs on until it unlocks
/// if taskID != .invalid { app.endBackgroundTask(taskID); taskID = .invalid }
/// ```
///
/// Why: simulated threads take turns on one OS thread (fibers) or pass one baton between OS
/// threads, so the real `pthread_mutex_lock` of a mutex another simulated thread holds would wait
/// forever: on itself with fibers, or holding the baton the holder needs. SimulationRuntimeShims
/// defines `pthread_mutex_lock`, `_trylock` and `_unlock` (Linux, glibc) and keeps this table,
/// shared with it (the run mark carries it: ``RunThreadMarker``), of what the run's simulated
/// threads hold; it calls the engine only for a
/// contended lock (``ThreadController/waitForPlainMutex(_:in:)``) and for the release of a mutex
/// someone waits for (``ThreadController/plainMutexReleased(_:)``).
///
/// Contract:
/// - Taking and releasing a free mutex is not a scheduling point and draws nothing (so the
///   Swift runtime's and Foundation's own mutexes, taken on the same threads, change no run);
///   a lock held across a scheduling point (a host call, a queue hop, a blocking call) is where
///   other threads meet it.
/// - A lock held by another simulated thread blocks the caller until it is released; all its
///   waiters then become runnable and the scheduler chooses which takes it. Until one of them
///   has, it is theirs: another thread that comes for it (its releaser, taking it again in a
///   loop with no scheduling point, as Foundation's `waitUntilAllOperationsAreFinished` polls
///   its queue's lock) waits behind them, as on a device, where they wake on other cores. A cycle of such
///   waits, or a normal mutex its holder takes again, is a deadlock (`no-deadlock`), named
///   "NSLock or pthread mutex #N" by when the waits on it began (a number lives while threads
///   wait: a freed object's address is reused).
/// - A `DispatchSemaphore` wait or `DispatchGroup.wait` that would block waits in the engine
///   (``ThreadController/waitForPlainObject(_:kind:deadline:in:)``), blocked or asleep until its
///   virtual deadline, for a signal or leave from a simulated thread of the run (one from a real
///   thread outside the run is not seen); the engine's own baton semaphores never do.
/// - A sleep (`nanosleep`, `clock_nanosleep`, `usleep`, `sleep`: `Thread.sleep`) blocks only the
///   sleeping simulated thread, for that long on the virtual clock (at least a microsecond). At
///   the run's end, when its threads are unwound, a sleep returns at once like every plain wait,
///   and a thread that keeps waiting (a loop polling a flag nothing can set any more) is given
///   up (``ThreadController/noteUnwindingWait(in:)``). Where no simulated thread can wait (one
///   thread, teardown's last jobs) a sleep returns at once and moves the clocks read there.
/// - A condition variable (`NSCondition`, and so `NSConditionLock` and Foundation's
///   `waitUntilFinished`; a `pthread_cond_t`) waited on with its mutex held gives the mutex back
///   and waits in the engine, blocked or asleep until its virtual deadline, for a signal (one
///   waiter wakes, a drawn one: ``ThreadController/plainConditionSignalled(_:)``) or a broadcast
///   (all) from a simulated thread of the run; then it takes the mutex again. Giving the mutex
///   back and starting to wait are one step, as in the C library: no signal slips in between.
/// - A mutex the Swift concurrency runtime takes (from libswift_Concurrency's code) is flagged:
///   its holder is not preempted until it lets go (``runsRuntimeHandler(_:)``), because the
///   runtime holds a task's status-record lock while it runs that task's cancellation handlers.
/// - A `pthread_rwlock_t` another simulated thread holds the other way (a writer, or readers
///   when a writer comes) blocks the caller as a plain wait does, until an unlock by a simulated
///   thread of the run; a lock taken either way orders accesses as a mutex does.
/// - A recursive mutex counts its holder's acquisitions; an error-checking one returns
///   `EDEADLK` to its holder, as glibc does.
/// - For the data-race detector, an unlock hands its past to the next lock, a semaphore's
///   signal to a wait that returns, a group's leave to a wait that returns (the shim tells the
///   engine: ``Scheduler/notePlainSync(_:release:)``), with or without simulated threads.
/// - Elsewhere (macOS, a C library other than glibc) real mutexes and semaphores are not seen
///   (``isSupported`` false).
final class PlainLocks {
    /// The memory the shim reads and writes (the runtime room's ``PlainLockTable``).
    let table = PlainLockTable()
    /// Threads blocked on a held mutex, by its address, in the order they blocked.
    var waiters: [UInt: [Int]] = [:]
    /// The number each waited-on object goes by in deadlock reports, while threads wait on it
    /// (1, 2, ... in the order the run's waits began: addresses differ between processes, and a
    /// freed object's address is reused by another, but that order is the same in every rerun).
    var numbers: [UInt: Int] = [:]
    /// The number the next object waited on gets.
    var nextNumber = 1
    /// What each waited-on dispatch object is, for its name (mutexes are not listed).
    var kinds: [UInt: WaitKind] = [:]
    /// The threads a mutex's release woke, by its address, while it is reserved for them: on a
    /// device they wake on other cores and one of them takes it, so a thread that is not one of
    /// them and takes it before any has run (its releaser, polling in a loop with no scheduling
    /// point) waits behind them (``ThreadController/waitForPlainMutex(_:in:)``).
    var handoffs: [UInt: [Int]] = [:]

    /// How a wait for a mutex ended (the shim's codes).
    enum MutexWaitOutcome: Int32 {
        /// Released: try again.
        case woken = 0
        /// The run gave it up (a deadlock, or the run is unwinding).
        case abandoned = 1
        /// Reserved, and the caller may take it now (`BGSIM_MUTEX_TAKE_RESERVED`).
        case takeReserved = 2
    }

    /// What a simulated thread waits on: a dispatch object, a condition variable, a read-write
    /// lock, or only its deadline (a sleep).
    enum WaitKind: Sendable {
        case semaphore, group, sleep, condition, readWriteLock
    }

    /// How a plain wait on a dispatch object ended (the shim's codes).
    enum WaitOutcome: Int32 {
        /// Signalled or left: try again.
        case woken = 0
        /// Its virtual deadline passed.
        case timedOut = 1
        /// The run gave it up (a deadlock, or the run is unwinding).
        case abandoned = -1
    }

    /// Whether real mutexes are tracked in this process (Linux with glibc).
    static var isSupported: Bool { PlainLockTable.isSupported }

    /// Tells the shim which simulated thread runs (nil: loop level, nothing is tracked).
    @inline(__always)
    func setCurrent(_ thread: Int?) { table.setCurrent(thread) }

    /// The simulated thread holding the mutex at `address`, if one does.
    func holder(of address: UInt) -> Int? { table.holder(of: address) }

    /// Lists `thread` as waiting on the object at `address`, numbering the object if it is new.
    func addWaiter(_ thread: Int, on address: UInt) {
        if waiters[address] == nil {
            numbers[address] = nextNumber
            nextNumber += 1
        }
        waiters[address, default: []].append(thread)
    }

    /// Takes `thread` off the object's waiters (it gave up or timed out); true if it was listed.
    @discardableResult
    func removeWaiter(_ thread: Int, on address: UInt) -> Bool {
        guard let index = waiters[address]?.firstIndex(of: thread) else { return false }
        waiters[address]?.remove(at: index)
        if waiters[address]?.isEmpty == true { forget(address) }
        return true
    }

    /// Whether simulated thread `thread` holds a real mutex.
    func holdsAny(_ thread: Int) -> Bool {
        table.holdsAny(thread)
    }

    /// Whether `thread` runs a cancellation or escalation handler of a Swift task: it holds a
    /// mutex of the concurrency runtime (the task's status-record lock). It is not preempted
    /// there (``ThreadController/schedulingPointSlowPath(in:)``), as inside
    /// ``Scheduler/withPreemptionDeferred(_:)``: a job of that task run meanwhile on another
    /// simulated thread would wait for the lock, and a wait the run gives up at its end makes the
    /// runtime abort.
    func runsRuntimeHandler(_ thread: Int) -> Bool {
        table.holdsRuntimeLock(thread)
    }

    /// Takes every waiter off the object (it was released, signalled or left).
    func takeWaiters(on address: UInt) -> [Int] {
        guard let taken = waiters[address] else { return [] }
        forget(address)
        return taken
    }

    /// Drops what is known of an object no thread waits on: the object may be freed and its
    /// address reused.
    private func forget(_ address: UInt) {
        waiters[address] = nil
        numbers[address] = nil
        kinds[address] = nil
    }
}

extension ThreadController {
    /// Blocks the current thread until the mutex at `address`, held by another simulated thread
    /// (or by itself: a deadlock), is released: `.woken` then. For a reserved mutex (released to
    /// waiters none of which has run since), `.takeReserved` without blocking when the caller is
    /// one of them or none of them can still take it (each is blocked again, or its process
    /// died); otherwise the caller waits behind them. `.abandoned` when there is no current
    /// thread, the run is unwinding, or the wait ended in a deadlock: the caller must not take the
    /// mutex then.
    func waitForPlainMutex(_ address: UInt, in scheduler: Scheduler) -> PlainLocks.MutexWaitOutcome {
        guard let me = state.current, !state.isUnwinding else { return .abandoned }
        if plainLocks.table.isReserved(address) {
            let woken = plainLocks.handoffs[address] ?? []
            if woken.contains(me) || !woken.contains(where: canStillRun) {
                plainLocks.handoffs[address] = nil
                return .takeReserved
            }
        }
        plainLocks.addWaiter(me, on: address)
        let woken = blockCurrent(on: .plainMutex(address: address), in: scheduler)
        if !woken { plainLocks.removeWaiter(me, on: address) }  // given up: no release may wake it now
        return woken ? .woken : .abandoned
    }

    /// Whether `thread` is runnable in a live process: a woken waiter that will come back to the
    /// mutex it waited for.
    private func canStillRun(_ thread: Int) -> Bool {
        state.threads[thread].isRunnable && !state.deadQueues.contains(state.threads[thread].queue)
    }

    /// Makes every thread blocked on the mutex or dispatch object at `address` runnable (it was
    /// released, signalled or left); they try again in the order the scheduler runs them. A
    /// released mutex stays reserved for them (``PlainLocks/handoffs``) until one has taken it.
    func plainMutexReleased(_ address: UInt) {
        let woken = plainLocks.takeWaiters(on: address)
        for thread in woken { wake(thread) }
        if !woken.isEmpty, plainLocks.table.isReserved(address) { plainLocks.handoffs[address] = woken }
    }

    /// Wakes one of the threads waiting on the condition variable at `address` (it was
    /// signalled): with several, a drawn one (POSIX names none; a device's order is not an app's
    /// to rely on).
    func plainConditionSignalled(_ address: UInt) {
        guard let waiting = plainLocks.waiters[address], !waiting.isEmpty else { return }
        let thread = waiting.count == 1 ? waiting[0] : waiting[Int(choices.draw(below: UInt64(waiting.count)))]
        plainLocks.removeWaiter(thread, on: address)
        wake(thread)
    }

    /// Blocks the current thread until a simulated thread signals or leaves the dispatch object
    /// at `address` (``plainMutexReleased(_:)``), or until the virtual time `deadline`
    /// (microseconds; negative: none) passes, asleep meanwhile and never part of a deadlock.
    func waitForPlainObject(_ address: UInt, kind: PlainLocks.WaitKind, deadline: Int64, in scheduler: Scheduler)
        -> PlainLocks.WaitOutcome
    {
        guard let me = state.current, !state.isUnwinding || stopsInertRun(of: me, in: scheduler) else {
            noteUnwindingWait(in: scheduler)
            if kind == .sleep, deadline >= 0, state.isFinalUnwind {
                // A sleep at the run's end is slept at once on the teardown's clock (the
                // loop level's, after the verdict): Foundation's `Thread.sleep` sleeps again
                // until the uptime it reads passes its deadline, and on a clock standing still
                // every one in progress was given up, keeping its thread.
                let left = deadline - scheduler.now.microseconds - scheduler.loopSleepMicroseconds
                if left > 0 { scheduler.loopSleepMicroseconds += left }
                return .timedOut
            }
            return .abandoned
        }
        if deadline >= 0 {
            let left = deadline - scheduler.now.microseconds
            guard left > 0 else { return .timedOut }
            plainLocks.addWaiter(me, on: address)
            plainLocks.kinds[address] = kind
            sleepCurrent(microseconds: left, in: scheduler)
            // A signal took it off the list; still listed, the deadline woke it.
            guard plainLocks.removeWaiter(me, on: address) else { return .woken }
            return state.isUnwinding ? .abandoned : .timedOut
        }
        plainLocks.addWaiter(me, on: address)
        plainLocks.kinds[address] = kind
        if blockCurrent(on: .plainObject(address: address), in: scheduler) { return .woken }
        plainLocks.removeWaiter(me, on: address)
        return .abandoned
    }

    /// The name a deadlock report gives the mutex at `address`.
    func plainMutexName(_ address: UInt) -> String {
        "NSLock or pthread mutex #\(plainLocks.numbers[address] ?? 0)"
    }

    /// The name a deadlock report gives the dispatch object at `address`.
    func plainObjectName(_ address: UInt) -> String {
        let kind = switch plainLocks.kinds[address] {
        case .group: "DispatchGroup"  // tidy: allow names, not calls
        case .sleep: "sleep"
        case .condition: "NSCondition or pthread condition"
        case .readWriteLock: "pthread read-write lock"
        case .semaphore, nil: "DispatchSemaphore"  // tidy: allow names, not calls
        }
        return "\(kind) #\(plainLocks.numbers[address] ?? 0)"
    }
}

extension Scheduler {
    /// Whether real mutexes app code takes on simulated threads (`NSLock`, `NSRecursiveLock`,
    /// `pthread_mutex_t`) are seen by the scheduler in this process (`PlainLocks`: Linux with
    /// glibc); elsewhere a real lock held across a scheduling point and wanted by another
    /// simulated thread stops the run.
    public static var tracksPlainLocks: Bool { PlainLocks.isSupported }
}
