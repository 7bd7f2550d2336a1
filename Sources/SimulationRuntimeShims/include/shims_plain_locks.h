// Plain locks inside a run (Linux, glibc): `pthread_mutex_lock`, `_trylock` and `_unlock` (under
// `NSLock`, `NSRecursiveLock` and C mutexes), called on a marked thread while one of the run's
// simulated threads runs, keep a table of which simulated thread holds which mutex
// (`bgsim_plain_locks`): a lock held by another simulated thread blocks only the caller's
// simulated thread (through the engine), where the real call would stop the run's one OS thread
// (plain_mutexes.c). Likewise `dispatch_semaphore_wait` and `dispatch_group_wait`
// (`DispatchSemaphore`, `DispatchGroup`) that would block wait as a simulated thread, for a
// `signal` or `leave` made by another simulated thread of the run, or for a virtual deadline
// (plain_waits.c, with read-write locks; condition variables in plain_conditions.c, sleeps in
// plain_sleeps.c). And `syscall`, for the priority-inheritance futex under Swift's `Mutex`: a
// contended lock whose owner is an OS thread that carried the run's jobs (`carriers`) blocks the
// caller's simulated thread the same way; every other system call goes through
// (swift_mutexes.c). Part of SimulationRuntimeShims.h, the module's umbrella header.
#ifndef SIMULATION_RUNTIME_SHIMS_PLAIN_LOCKS_H
#define SIMULATION_RUNTIME_SHIMS_PLAIN_LOCKS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A pthread mutex held by a simulated thread of a run.
typedef struct bgsim_held_mutex {
    /// The mutex (NULL: a free entry).
    void *_Nullable mutex;
    /// The holder's simulated-thread id plus one; 0: reserved (a release with waiters keeps the
    /// entry: the mutex is free, and a thread that is not one of the woken waiters waits behind
    /// them until one of them has run).
    int32_t holder;
    /// Acquisitions not yet released (above 1 only for a recursive mutex).
    int32_t depth;
    /// Simulated threads that blocked on it since it was taken; its release wakes them.
    int32_t waiters;
    /// Nonzero: taken by the Swift concurrency runtime's own code (a task's status-record lock),
    /// which may call app code while it holds it (a cancellation handler): see `runtimeHolds`.
    int32_t runtime;
} bgsim_held_mutex;

/// How many mutexes one run's simulated threads may hold at once and be tracked.
#define BGSIM_HELD_MUTEX_CAPACITY 64
/// How many OS threads carrying one run's jobs are known by their kernel thread id.
#define BGSIM_CARRIER_CAPACITY 64

/// One run's real mutexes, as its simulated threads hold them: written by the shim on the run's
/// own threads (only the thread holding the run's baton runs), and by the engine for `current`.
typedef struct bgsim_plain_locks {
    /// The simulated thread running a job, id plus one; 0 at loop level (nothing is tracked).
    int32_t current;
    /// Entries of `held` in use (the first `count`).
    int32_t count;
    /// Acquisitions that found the table full and were left untracked.
    int32_t untracked;
    /// Simulated threads blocked in a plain wait on a dispatch semaphore or group: a signal or a
    /// leave then tells the engine.
    int32_t objectWaiters;
    /// Entries of `held` taken by the concurrency runtime (`runtime` set). Swift runs a task's
    /// cancellation handlers (`withTaskCancellationHandler`'s `onCancel`) and priority escalation
    /// handlers while the canceller holds the task's status-record lock, a mutex of the runtime:
    /// the engine does not preempt a simulated thread holding such a lock (another thread that
    /// ran a job of the task then would wait for it, and the runtime aborts on a lock the run
    /// gives up at its end).
    int32_t runtimeHolds;
    bgsim_held_mutex held[BGSIM_HELD_MUTEX_CAPACITY];
    /// The kernel thread ids of the OS threads that carried the run's jobs (the first
    /// `carrierCount`): a Swift `Mutex` word names its owner by one (see `syscall` in the shim).
    int32_t carrierCount;
    int32_t carriers[BGSIM_CARRIER_CAPACITY];
    /// A number no other table of the process had (0 until a carrier is noted): a thread that
    /// noted itself in this table skips the list the next time (tables' memory is reused).
    uint64_t serial;
} bgsim_plain_locks;

/// Blocks the calling simulated thread of the run `mark` until `mutex`, held by a simulated
/// thread of the run, is released: 0 once woken, `BGSIM_MUTEX_TAKE_RESERVED` when the mutex is
/// reserved (released to waiters that have not run yet) and the caller may take it at once (it
/// is one of them, or none of them can still come), another nonzero value when the run gave the
/// wait up (a deadlock, or the run is being unwound: the mutex must then not be taken).
typedef int (*bgsim_mutex_wait_fn)(void *_Nonnull mark, void *_Nonnull mutex);

/// `bgsim_mutex_wait_fn`'s answer for a reserved mutex the caller may take now.
#define BGSIM_MUTEX_TAKE_RESERVED 2
/// Tells the run `mark` that `object` (a mutex, a dispatch semaphore or group) on which simulated
/// threads may wait was released, signalled or left: its waiters try again.
typedef void (*bgsim_mutex_released_fn)(void *_Nonnull mark, void *_Nonnull object);

/// What a plain wait waits on: a dispatch semaphore or group, nothing but its deadline (a
/// sleep: `nanosleep`, `Thread.sleep`), a condition variable (`NSCondition`, a
/// `pthread_cond_t`), or a read-write lock held the other way (`pthread_rwlock_t`).
enum { BGSIM_PLAIN_WAIT_SEMAPHORE = 1, BGSIM_PLAIN_WAIT_GROUP = 2, BGSIM_PLAIN_WAIT_SLEEP = 3,
       BGSIM_PLAIN_WAIT_CONDITION = 4, BGSIM_PLAIN_WAIT_RWLOCK = 5 };

/// Blocks the calling simulated thread of the run `mark` until `object` (a dispatch semaphore or
/// group, a condition variable: `kind`) is signalled or left by a simulated thread of the run, or
/// until the run's virtual time reaches `deadline` (microseconds; -1: no deadline): 0 when woken
/// to try again, 1 when the deadline passed, -1 when the run gave the wait up (a deadlock, or
/// unwinding).
typedef int (*bgsim_object_wait_fn)(void *_Nonnull mark, void *_Nonnull object, int kind, int64_t deadline);

/// Tells the run `mark` that the condition variable `object` was signalled (not broadcast): one
/// of the simulated threads waiting on it, the scheduler's pick, is woken.
typedef void (*bgsim_object_signalled_one_fn)(void *_Nonnull mark, void *_Nonnull object);

/// Registers the engine's side of plain locks and waits (see the file comment). Called once per
/// process, before any thread is marked; where the shim is not built nothing is tracked.
void bgsim_plain_locks_register(bgsim_mutex_wait_fn _Nonnull wait, bgsim_mutex_released_fn _Nonnull released,
                                bgsim_object_wait_fn _Nonnull objectWait,
                                bgsim_object_signalled_one_fn _Nonnull signalledOne);

/// A point where the engine may run another simulated thread of the run whose mark is `mark`,
/// before the calling one takes a free mutex app code asked for (app_lock_points.c).
typedef void (*bgsim_app_lock_point_fn)(void *_Nonnull mark);

/// Registers the engine's side of app code's lock acquisitions as scheduling points (see
/// app_lock_points.c): only in runs that check plain accesses, on a simulated thread, before it
/// takes a free mutex that app code locked itself or through `NSLock` or `NSLocking.withLock`.
/// Where the shim is not built, nothing happens.
void bgsim_app_lock_points_register(bgsim_app_lock_point_fn _Nonnull point);

/// Registers the engine's poll point (see foundation_polls.c): called on a simulated thread
/// before it takes a free mutex from inside one of Foundation's polling loops
/// (`OperationQueue.waitUntilAllOperationsAreFinished()` on Linux), in every run; the engine lets
/// the thread wait a little when nothing happened since its last poll. Once per process, before
/// any run; where the shim is not built, nothing happens.
void bgsim_foundation_polls_register(bgsim_app_lock_point_fn _Nonnull point);

/// The phases of the calibration of app lock points (`bgsim_app_lock_points_calibrate`).
#define BGSIM_LOCK_CALIBRATION_OFF 0
#define BGSIM_LOCK_CALIBRATION_WARMING 1
#define BGSIM_LOCK_CALIBRATION_RECORDING 2

/// Sets the calling thread's calibration phase: while RECORDING, the return address of every
/// `pthread_mutex_lock` call inside Foundation's code is noted as Foundation's forwarding code
/// (the engine then locks Foundation's lock classes through `NSLocking`, after WARMING with the
/// same calls, so that locks the runtime takes on first use are not noted); OFF ends it. Once per
/// process, at registration.
void bgsim_app_lock_points_calibrate(int32_t phase);

/// 1 where this target defines the pthread mutex functions (Linux with glibc), else 0.
int bgsim_plain_locks_supported(void);

#ifdef __cplusplus
}
#endif

#endif
