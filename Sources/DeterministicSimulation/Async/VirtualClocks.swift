import SimulationRuntime
internal import SimulationRuntimeShims

/// The process's clocks on a run's virtual time: inside a run, `Date()`, `ContinuousClock.now`,
/// `SuspendingClock.now`, `clock_gettime` and `gettimeofday` answer the run's virtual time, so
/// app code that reads a clock, or sleeps until an instant of one, sees the simulation's time
/// without being handed a clock.
///
/// ```swift
/// scheduler.async(on: scheduler.mainQueue) {
///     let started = ContinuousClock.now          // virtual: the run's time
///     print(Date())                              // 2026-01-01 00:00:00 +0000 plus the run's time
/// }
/// ```
///
/// How: SimulationRuntimeShims defines the C library's clock functions in the binary (Linux),
/// and they ask the calling thread's run mark (``RunThreadMarker``): on a marked thread they
/// answer the run's virtual time through the callback registered here; on every other thread
/// they call the C library. CPU-time clocks stay real everywhere.
///
/// Contract:
/// - Inside a run, monotonic and boot-time clocks (`ContinuousClock`, `SuspendingClock`,
///   `DispatchTime`) read ``uptimeAtStartSeconds`` plus the run's virtual time since its start;
///   the wall clock (`Date()`, `CLOCK_REALTIME`) reads ``epochSeconds`` plus that time. The simulated device never sleeps,
///   so `SuspendingClock` (which stops only while the *system* sleeps) and `ContinuousClock` agree.
/// - Registered once per process, at load (before `main`), with the process executors.
/// - Where the shim is not built (``isSupported`` false: not Linux), clocks stay real inside
///   runs; a sleep until a real instant is then reported as an escape (``AsyncEscape``).
/// - The harness's own timing (watchdogs, run timeouts) calls `RealClock` (SimulationRuntime),
///   never the interposed functions, so it stays real on every thread.
package enum VirtualClocks {
    /// The wall-clock time of virtual time zero, in seconds since 1970: 2026-01-01T00:00:00Z.
    /// A constant, so that a run's dates are the same in every process.
    package static let epochSeconds: Int64 = 1_767_225_600

    /// How long the simulated device has been up when a run starts (an hour), so its monotonic
    /// clocks never read zero: libdispatch takes an uptime of 0 for "forever", and a
    /// `DispatchTime.now() + 5` at a run's first instant waited forever.
    package static let uptimeAtStartSeconds = Int64(BGSIM_VIRTUAL_UPTIME_AT_START_SECONDS)

    /// Whether the process's clocks read virtual time inside runs (the shim is built: Linux).
    package static var isSupported: Bool { bgsim_virtual_clocks_supported() != 0 }

    /// Registers the engine's callbacks of the shim: a run's virtual time, real Dispatch calls
    /// inside a run, and waits for plain locks. Idempotent.
    static func register() {
        bgsim_virtual_clocks_register({ mark in
            let scheduler = ThreadMark.object(marked: mark, as: Scheduler.self)
            let now = scheduler.now.microseconds
            // Sleeps where no simulated thread can wait move the clocks read there (not a
            // simulated thread's: its sleeps wait on the run's own time), and so do the sleeps
            // of the threads unwound at the run's end, which read the same clock.
            guard scheduler.loopSleepMicroseconds != 0,
                  scheduler.currentThreadID == nil || scheduler.threads?.isFinalUnwind == true else { return now }
            return now + scheduler.loopSleepMicroseconds
        }, epochSeconds)
        // App code's `Thread.sleep` (a `nanosleep` loop until the uptime passes its deadline) at
        // the loop level: on one thread, or in the teardown's last jobs, where a real sleep on a
        // clock that stands still would never end (a task finished at teardown hung the process).
        bgsim_loop_sleep_register { mark, micros in
            let scheduler = ThreadMark.object(marked: mark, as: Scheduler.self)
            scheduler.loopSleepMicroseconds = Saturating.add(scheduler.loopSleepMicroseconds, micros)
        }
        // Real Dispatch inside a run: the same mark names the run. Its simulator runs the work
        // on a simulated queue where it can (``Scheduler/onRealDispatch``). What it does not take
        // is kept out only where `no-async-escape` reports it (a run with Swift concurrency
        // enabled); elsewhere the call goes through as before, rather than losing the work
        // unreported. A `sync` not taken always goes through (its caller needs the work done).
        bgsim_real_dispatch_register({ mark, raw in
            let scheduler = ThreadMark.object(marked: mark, as: Scheduler.self)
            let call = RealDispatchCall(OpaquePointer(raw))
            if call.operation == .isMainThread {
                call.answer(scheduler.isOnSimulatedMainThread ? 1 : 0)
                return 1
            }
            if let route = scheduler.onRealDispatch, route(call) { return 1 }
            let escape: AsyncEscape.Kind
            switch call.operation {
            case .sync, .groupLeft, .assertOnQueue, .timerSchedule, .timerEventHandler, .timerCancelHandler,
                 .timerSuspend, .timerCancel, .timerIsCancelled, .isMainThread, .queueMade, .currentQueue, .timerReleased:
                return 0
            case .async, .after, .notify: escape = .realDispatchQueue(label: call.label, call: call.function)
            case .sourceStarted, .timerResume, .timerActivate: escape = .realDispatchSource(call: call.function)
            }
            guard let state = scheduler.asyncState, state.taskExecutor != nil else { return 0 }
            state.record(escape, scheduler: scheduler)
            return 1
        })
        // Plain locks (``PlainLocks``): a simulated thread waits for a real mutex another one
        // holds, or for a dispatch semaphore, group or condition variable another one signals or
        // leaves, and the release, signal or leave of one with waiters wakes them (a condition's
        // signal wakes one). Nothing else calls the engine:
        // the Swift runtime takes mutexes of its own inside these very callbacks.
        bgsim_plain_locks_register({ mark, mutex in
            let scheduler = ThreadMark.object(marked: mark, as: Scheduler.self)
            let outcome = scheduler.threadsCall?.call { $0.waitForPlainMutex(UInt(bitPattern: mutex), in: scheduler) }
            return (outcome ?? .abandoned).rawValue
        }, { mark, object in
            ThreadMark.object(marked: mark, as: Scheduler.self).threadsCall?.call {
                $0.plainMutexReleased(UInt(bitPattern: object))
            }
        }, { mark, object, kind, deadline in
            let scheduler = ThreadMark.object(marked: mark, as: Scheduler.self)
            let kind: PlainLocks.WaitKind = switch kind {
            case Int32(BGSIM_PLAIN_WAIT_GROUP): .group
            case Int32(BGSIM_PLAIN_WAIT_SLEEP): .sleep
            case Int32(BGSIM_PLAIN_WAIT_CONDITION): .condition
            case Int32(BGSIM_PLAIN_WAIT_RWLOCK): .readWriteLock
            default: .semaphore
            }
            return scheduler.threadsCall?.call {
                $0.waitForPlainObject(UInt(bitPattern: object), kind: kind, deadline: deadline, in: scheduler).rawValue
            } ?? -1
        }, { mark, object in
            ThreadMark.object(marked: mark, as: Scheduler.self).threadsCall?.call {
                $0.plainConditionSignalled(UInt(bitPattern: object))
            }
        })
        // App code's lock acquisitions (a free mutex it takes itself, or through `NSLock` and
        // `NSLocking.withLock`): points where another simulated thread may run first, in runs that
        // check plain accesses, so a read-modify-write through a lock-per-access wrapper can lose
        // its update as on a device (``Scheduler/schedulingPoint()``).
        AppLockPoints.install { mark in ThreadMark.object(marked: mark, as: Scheduler.self).schedulingPoint() }
        // Foundation's polling loops (Linux's `waitUntilAllOperationsAreFinished()`): a thread that
        // polls with nothing happening in the run waits a little, so the thread it waits for runs
        // (``Scheduler/pollPoint()``).
        bgsim_foundation_polls_register { mark in ThreadMark.object(marked: mark, as: Scheduler.self).pollPoint() }
        // Plain accesses of app code, the frees that end their locations and the real locks,
        // semaphores and groups that order them (``checksPlainAccesses``). The shim calls none
        // of these for the engine's own code, nor while one of them runs.
        (Scheduler.engineModules + Scheduler.libraryModules).joined(separator: ",").withCString { modules in
            bgsim_plain_accesses_register({ mark, address, isWrite, site in
                ThreadMark.object(marked: mark, as: Scheduler.self).recordPlainAccess(
                    isWrite != 0 ? .write : .read, at: UInt(bitPattern: address), site: UInt(bitPattern: site))
            }, { mark, address, size in
                ThreadMark.object(marked: mark, as: Scheduler.self).forgetPlainBytes(size, at: UInt(bitPattern: address))
            }, { mark, object, how in
                ThreadMark.object(marked: mark, as: Scheduler.self).notePlainSync(UInt(bitPattern: object), how: how)
            }, modules)
        }
        // Foundation's singletons, one per simulated process (``FoundationSingleton``).
        // `OperationQueue.current` is the process's main queue on its main thread, else
        // Foundation's answer.
        bgsim_foundation_singletons_register { mark, kind in
            let scheduler = ThreadMark.object(marked: mark, as: Scheduler.self)
            var kind = kind
            if kind == Int32(BGSIM_SINGLETON_CURRENT_OPERATION_QUEUE) {
                guard scheduler.isOnSimulatedMainThread else { return nil }
                kind = FoundationSingleton.mainOperationQueue.rawValue
            }
            guard let singleton = FoundationSingleton(rawValue: kind),
                  let object = scheduler.onFoundationSingleton?(singleton) else { return nil }
            return ThreadMark.retainedForShim(object)
        }
    }
}
