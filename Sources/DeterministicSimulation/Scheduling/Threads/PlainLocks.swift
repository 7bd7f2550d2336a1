import SimulationRuntime

/// The real mutexes app code takes on a run's simulated threads (`NSLock`, `NSRecursiveLock`, a
/// `pthread_mutex_t`): which simulated thread holds which, so that one simulated thread waiting
/// for another's lock blocks only itself, as an OS thread would on a device.
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
///   waiters then become runnable and the scheduler chooses which takes it. A cycle of such
///   waits, or a normal mutex its holder takes again, is a deadlock (`no-deadlock`), named
///   "NSLock or pthread mutex #N" in the order the run first waited on each.
/// - A recursive mutex counts its holder's acquisitions; an error-checking one returns
///   `EDEADLK` to its holder, as glibc does.
/// - Not synchronisation for the data-race detector: guard ``SharedState`` with the host's lock.
/// - Elsewhere (macOS, a C library other than glibc) real mutexes are not seen
///   (``isSupported`` false).
final class PlainLocks {
    /// The memory the shim reads and writes (the runtime room's ``PlainLockTable``).
    let table = PlainLockTable()
    /// Threads blocked on a held mutex, by its address, in the order they blocked.
    var waiters: [UInt: [Int]] = [:]
    /// The number each waited-on mutex goes by in deadlock reports (1, 2, ... in the order the
    /// run first waited on it: addresses differ between processes, the order does not).
    var numbers: [UInt: Int] = [:]

    /// Whether real mutexes are tracked in this process (Linux with glibc).
    static var isSupported: Bool { PlainLockTable.isSupported }

    /// Tells the shim which simulated thread runs (nil: loop level, nothing is tracked).
    @inline(__always)
    func setCurrent(_ thread: Int?) { table.setCurrent(thread) }

    /// The simulated thread holding the mutex at `address`, if one does.
    func holder(of address: UInt) -> Int? { table.holder(of: address) }
}

extension ThreadController {
    /// Blocks the current thread until the mutex at `address`, held by another simulated thread
    /// (or by itself: a deadlock), is released. `false` when there is no current thread, the run
    /// is unwinding, or the wait ended in a deadlock: the caller must not take the mutex then.
    func waitForPlainMutex(_ address: UInt, in scheduler: Scheduler) -> Bool {
        guard let me = state.current, !state.isUnwinding else { return false }
        if plainLocks.numbers[address] == nil { plainLocks.numbers[address] = plainLocks.numbers.count + 1 }
        plainLocks.waiters[address, default: []].append(me)
        let woken = blockCurrent(on: .plainMutex(address: address), in: scheduler)
        if !woken, let index = plainLocks.waiters[address]?.firstIndex(of: me) {
            plainLocks.waiters[address]?.remove(at: index)  // given up: no release may wake it now
        }
        return woken
    }

    /// Makes every thread blocked on the mutex at `address` runnable (it was released); they try
    /// again in the order the scheduler runs them.
    func plainMutexReleased(_ address: UInt) {
        guard let waiting = plainLocks.waiters.removeValue(forKey: address) else { return }
        for thread in waiting { wake(thread) }
    }

    /// The name a deadlock report gives the mutex at `address`.
    func plainMutexName(_ address: UInt) -> String {
        "NSLock or pthread mutex #\(plainLocks.numbers[address] ?? 0)"
    }
}

extension Scheduler {
    /// Whether real mutexes app code takes on simulated threads (`NSLock`, `NSRecursiveLock`,
    /// `pthread_mutex_t`) are seen by the scheduler in this process (`PlainLocks`: Linux with
    /// glibc); elsewhere a real lock held across a scheduling point and wanted by another
    /// simulated thread stops the run.
    public static var tracksPlainLocks: Bool { PlainLocks.isSupported }
}
