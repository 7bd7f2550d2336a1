// SimulationRuntimeShims: the C-level pieces that let a run own the process's view of time and
// of Swift concurrency. See DeterministicSimulation's "Async Under Simulation" article.
//
// - The run mark: which run (an opaque pointer, the engine's Scheduler) the calling OS thread is
//   executing a job of; a thread-local variable, so reading it costs one TLS load.
// - Virtual clocks (Linux): this target defines `clock_gettime`, `gettimeofday` and `time`. On a
//   thread with a run mark they answer the run's virtual time (through the callback the engine
//   registers); everywhere else they call the C library's own functions. So `Date()`,
//   `ContinuousClock.now`, `SuspendingClock.now` and `Task.sleep` deadlines read virtual time
//   inside a run, with no change to the code that reads them.
// - Real Dispatch inside a run (Linux): `dispatch_async`, `dispatch_sync`, `dispatch_after` and
//   friends, called on a marked thread, are handed to the engine, which runs the work on the
//   run's simulated queues (or reports it), and are not made: the block would run on a real
//   thread, outside the simulation (`real_dispatch.c`).
// - Plain locks inside a run (Linux, glibc): `pthread_mutex_lock`, `_trylock` and `_unlock` (under
//   `NSLock`, `NSRecursiveLock` and C mutexes), called on a marked thread while one of the run's
//   simulated threads runs, keep a table of which simulated thread holds which mutex
//   (`bgsim_plain_locks`): a lock held by another simulated thread blocks only the caller's
//   simulated thread (through the engine), where the real call would stop the run's one OS thread.
//   Likewise `dispatch_semaphore_wait` and `dispatch_group_wait` (`DispatchSemaphore`,
//   `DispatchGroup`) that would block wait as a simulated thread, for a `signal` or `leave` made
//   by another simulated thread of the run, or for a virtual deadline. And `syscall`, for the
//   priority-inheritance futex under Swift's `Mutex`: a contended lock whose owner is an OS
//   thread that carried the run's jobs (`carriers`) blocks the caller's simulated thread the same
//   way; every other system call goes through.
// - Plain accesses inside a run (Linux, glibc, 64-bit; plain_accesses.c): `swift_beginAccess`
//   (Swift's run-time exclusivity check of class properties, globals and captured variables)
//   and the frees of Swift objects. On a thread of a run that checks data races, an access made
//   by app code (told by its caller's symbol) is handed to the engine before the runtime's own
//   check, and the real mutexes, semaphores and groups above are happens-before edges; everywhere
//   else each costs a thread-local load. So are the Swift concurrency runtime's own marks
//   (concurrency_edges.c: the `_swift_tsan_acquire` and `_swift_tsan_release` hook variables it
//   gives ThreadSanitizer, chained to ThreadSanitizer's own).
// - Process executors: a load-time constructor calls the engine's
//   `simulation_install_process_executors` (a weak reference: nothing happens in a binary without the
//   engine), so Swift's main and default executors are the engine's before any task exists.
#ifndef SIMULATION_RUNTIME_SHIMS_H
#define SIMULATION_RUNTIME_SHIMS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The calling thread's run mark (NULL outside every run).
void *_Nullable bgsim_run_mark_get(void);


/// Inside a run the simulated device has been up this long when the run begins: monotonic and
/// boot-time clocks (`ContinuousClock`, `SuspendingClock`, `DispatchTime`) read it plus the run's
/// virtual time. Never zero, as on a device: libdispatch reads an uptime of 0 as "forever"
/// (`DispatchTime.now()` at 0 overflows to `DISPATCH_TIME_FOREVER`, and `.now() + 5` with it).
#define BGSIM_VIRTUAL_UPTIME_AT_START_SECONDS 3600

/// The virtual time of the run `mark` names, in microseconds since the run began.
typedef int64_t (*bgsim_virtual_now_fn)(void *_Nonnull mark);

/// Registers how to read a run's virtual time and the wall-clock epoch of virtual time zero
/// (seconds since 1970). Called once per process by the engine; later calls replace both.
void bgsim_virtual_clocks_register(bgsim_virtual_now_fn _Nonnull now, int64_t epochSeconds);

/// Tells the run `mark` that app code slept `micros` microseconds on one of its threads where no
/// simulated thread can wait (the loop level: a run on one thread, the teardown's last jobs):
/// the sleep returns at once, and the run's clocks read that much later there from now on, so a
/// loop that sleeps until a clock reading passes a deadline (Foundation's `Thread.sleep`) ends.
typedef void (*bgsim_loop_sleep_fn)(void *_Nonnull mark, int64_t micros);

/// Registers the engine's side of loop-level sleeps (``bgsim_loop_sleep_fn``); until then such
/// a sleep is a real one.
void bgsim_loop_sleep_register(bgsim_loop_sleep_fn _Nonnull slept);

/// What a call to a real Dispatch queue asks for (``bgsim_dispatch_call``'s `operation`).
enum {
    /// `dispatch_async`, `dispatch_barrier_async`, `dispatch_group_async` and their `_f` forms.
    BGSIM_DISPATCH_ASYNC = 1,
    /// `dispatch_after` and `dispatch_after_f`: `deadline` says when.
    BGSIM_DISPATCH_AFTER = 2,
    /// `dispatch_sync`, `dispatch_barrier_sync` and their `_f` forms: the caller waits for the work.
    BGSIM_DISPATCH_SYNC = 3,
    /// `dispatch_group_notify` and `dispatch_group_notify_f`: the work is sent to the queue
    /// when `group` is empty.
    BGSIM_DISPATCH_NOTIFY = 4,
    /// Not a call that sends work: `dispatch_group_leave` on `group` (a notification waiting for
    /// it may be due). `queue` is null; the observer's answer is ignored.
    BGSIM_DISPATCH_GROUP_LEFT = 5,
    /// `dispatch_resume` or `dispatch_activate` of a Dispatch source made inside a run that is
    /// not a timer (a file descriptor's, a signal's, a data source): its handler would run on a
    /// real thread. `source` is the source.
    BGSIM_DISPATCH_SOURCE = 6,
    /// `dispatch_assert_queue` (`dispatchPrecondition(condition: .onQueue(q))`) and its barrier
    /// form: whether the caller runs on `queue`. The observer sets `violated` when it does not.
    BGSIM_DISPATCH_ASSERT_ON = 7,
    /// `dispatch_assert_queue_not` (`.notOnQueue(q)`): `violated` when the caller runs on it.
    BGSIM_DISPATCH_ASSERT_NOT_ON = 8,
    /// A timer source made inside a run (`source`; `queue` its target): `dispatch_source_set_timer`
    /// (`deadline` the first fire, `interval` microseconds, -1 for once), its event and cancel
    /// handlers (`block`), `resume`, `activate` (`BGSIM_DISPATCH_TIMER_ACTIVATE`), `suspend`,
    /// `cancel`, and `testcancel` (the observer answers in `result`). A `resume` with no
    /// suspension to undo is Dispatch's over-resume: the observer sets `violated`, and the shim
    /// stops the process as Dispatch does. A Foundation run-loop timer added to the main run loop
    /// inside a run comes as the same operations (run_loop_timers.c): `source` is the
    /// `CFRunLoopTimer`, `queue` the main queue, its handler a function (`work`), its schedule
    /// from its fire date, `resume` when added, `cancel` when invalidated.
    BGSIM_DISPATCH_TIMER_SET = 9,
    BGSIM_DISPATCH_TIMER_HANDLER = 10,
    BGSIM_DISPATCH_TIMER_CANCEL_HANDLER = 11,
    BGSIM_DISPATCH_TIMER_RESUME = 12,
    BGSIM_DISPATCH_TIMER_SUSPEND = 13,
    BGSIM_DISPATCH_TIMER_CANCEL = 14,
    BGSIM_DISPATCH_TIMER_TEST_CANCEL = 15,
    /// Not Dispatch: Foundation's `Thread.isMainThread` (`_CFIsMainThread`) on a run's thread,
    /// answered in `result` (1 on the run's simulated main thread).
    BGSIM_DISPATCH_IS_MAIN_THREAD = 16,
    /// Not a call that sends work: `dispatch_queue_create` or `_with_target` made `queue` (not
    /// resolved to a target) inside a run; the observer forgets any route it made for an earlier
    /// queue at that address. Its answer is ignored.
    BGSIM_DISPATCH_QUEUE_MADE = 17,
    /// Not a call that sends work: `dispatch_get_specific` (`DispatchQueue.getSpecific(key:)`) on
    /// a run's thread. The observer answers in `result` the queue (a call's `origin`; -1: the
    /// main queue; 0: none) whose block runs on the calling thread, in a job of it or inside a
    /// `sync` onto it; the shim then reads the key from that queue and the queues it targets, as
    /// Dispatch does.
    BGSIM_DISPATCH_CURRENT_QUEUE = 18,
    /// `dispatch_activate` of a timer source made inside a run (with the timer operations above):
    /// starts an inactive timer, nothing on an active one.
    BGSIM_DISPATCH_TIMER_ACTIVATE = 19,
    /// `dispatch_release` of the app's last reference to a timer source made inside a run (the
    /// shim keeps one of its own, so the source is never freed). On a device the release cancels
    /// an active timer (its cancel handler runs) and stops the process when the timer is
    /// suspended or inactive: the observer then answers in `result` 1 (inactive) or 2
    /// (suspended) and sets `violated`.
    BGSIM_DISPATCH_TIMER_RELEASED = 20,
};

/// Which queue runs a call's work (``bgsim_dispatch_call``'s `queueKind`), after following
/// the targets of queues the process made.
enum {
    /// The main queue (or a queue that targets it).
    BGSIM_QUEUE_MAIN = 1,
    /// One of the global (root) queues.
    BGSIM_QUEUE_GLOBAL = 2,
    /// A serial queue the process made (or one that targets it): also any queue this file did
    /// not see made.
    BGSIM_QUEUE_SERIAL = 3,
    /// A concurrent queue the process made (`attributes: .concurrent`).
    BGSIM_QUEUE_CONCURRENT = 4,
    /// The concurrent queue Foundation makes under an `OperationQueue`: its blocks run one at a
    /// time (real_dispatch.c, `note_queue`, says why), in no promised order.
    BGSIM_QUEUE_ONE_AT_A_TIME = 5,
};

/// One call that sends work to a real Dispatch queue, made on a thread with a run mark.
typedef struct bgsim_dispatch_call {
    /// The queue that runs the work: the one called, or the serial queue or main queue it
    /// targets.
    void *_Nullable queue;
    /// The label of the queue called ("" when it has none).
    const char *_Nonnull label;
    /// The Dispatch function called, such as "dispatch_async".
    const char *_Nonnull function;
    int32_t operation;
    int32_t queueKind;
    /// 1 for the barrier forms.
    int32_t barrier;
    /// 1 once the block was copied for keeping (``bgsim_dispatch_call_keep``).
    int32_t kept;
    /// Set by the observer when the call breaks Dispatch's contract (a `dispatch_assert_queue`
    /// condition that does not hold, a timer's over-resume): the shim then stops the process
    /// as Dispatch would.
    int32_t violated;
    int32_t reserved;
    /// The work: a block, or a function and its context (the `_f` forms).
    void *_Nullable block;
    void *_Nullable context;
    void (*_Nullable work)(void *_Nullable);
    /// Called with `context` when a kept call is freed (NULL: nothing to release).
    void (*_Nullable dispose)(void *_Nullable);
    /// `dispatch_group_async`: the group, entered before the call was reported and left after
    /// the work runs. `dispatch_group_notify`: the group to wait for (not entered).
    void *_Nullable group;
    /// `dispatch_after`, a timer's first fire: when, as a virtual instant in microseconds (-1: never).
    int64_t deadline;
    /// A timer's interval in microseconds (-1: it fires once).
    int64_t interval;
    /// The timer source of a timer operation.
    void *_Nullable source;
    /// What the observer answers (`dispatch_source_testcancel`, `dispatch_get_specific`).
    int64_t result;
    /// The queue called, before following its targets (a timer's: the queue it was made
    /// with): `DispatchQueue.getSpecific` reads keys from it while the work runs. A kept call
    /// holds it alive (Dispatch's internal reference, as Dispatch's own queued work does).
    void *_Nullable origin;
} bgsim_dispatch_call;

/// Told about each call that sends work to a real Dispatch queue from a thread with a run mark.
/// Returns 1 when the run took the call (it runs the work on a simulated queue, or reported it
/// and keeps it): the work is then not sent to Dispatch. 0 lets the call through.
typedef int (*bgsim_real_dispatch_fn)(void *_Nonnull mark, bgsim_dispatch_call *_Nonnull call);

/// Registers the observer of real Dispatch calls inside runs (Linux: this target defines
/// `dispatch_async`, `dispatch_sync`, `dispatch_after`, `dispatch_group_async`,
/// `dispatch_group_notify`, their barrier and `_f` forms, Dispatch's queue constructors, to
/// know which queues are serial and what they target, the timer source calls,
/// `dispatch_get_specific`, and `dispatch_release` of a run's timer). On a thread with a run
/// mark each of them tells the observer and, when it took the call, does not send the work, which would run
/// outside the simulation; otherwise it calls Dispatch's own. Where the shim is not built
/// nothing is observed.
void bgsim_real_dispatch_register(bgsim_real_dispatch_fn _Nonnull observer);

/// Forgets what the shim remembers of the run `mark` (the Dispatch sources it made), and frees its
/// timers that nothing else holds: called when the run ends, so that the sources of ended runs
/// neither crowd the table, nor match a later run, nor stay in memory.
void bgsim_real_dispatch_run_ended(void *_Nonnull mark);

/// How many timer sources of ended runs the shim has freed in this process (those nothing but
/// the shim held when their run ended; the others stay kept).
uint64_t bgsim_real_dispatch_sources_freed(void);

/// Foundation's process-wide singletons a run gives its own of (foundation_singletons.c):
/// `NotificationCenter.default` (each simulated process's), `UserDefaults.standard` (the run's
/// device's), `OperationQueue.main` (each simulated process's) and `OperationQueue.current` on
/// the simulated main thread (that process's main queue).
enum {
    BGSIM_SINGLETON_NOTIFICATION_CENTER = 0, BGSIM_SINGLETON_USER_DEFAULTS = 1, BGSIM_SINGLETON_MAIN_OPERATION_QUEUE = 2,
    BGSIM_SINGLETON_CURRENT_OPERATION_QUEUE = 3
};

/// Returns the run `mark`'s object of `kind` (a `BGSIM_SINGLETON_` value) for the calling code's
/// process, retained (+1), or NULL to let Foundation's own getter answer.
typedef void *_Nullable (*bgsim_foundation_singleton_fn)(void *_Nonnull mark, int32_t kind);

/// Registers the engine's provider of per-process singletons (Linux, x86-64 and arm64: this
/// target defines the getter of `NotificationCenter.default`; inside a run it asks the
/// provider). Where the shim is not built Foundation's own objects are used.
void bgsim_foundation_singletons_register(bgsim_foundation_singleton_fn _Nonnull provider);

/// A copy of `call` that outlives it, its block copied (`Block_copy`); free it with
/// ``bgsim_dispatch_call_free``. For work the run runs later.
bgsim_dispatch_call *_Nonnull bgsim_dispatch_call_keep(const bgsim_dispatch_call *_Nonnull call);

/// Runs the call's work on the calling thread, then leaves its group (`dispatch_group_async`).
void bgsim_dispatch_call_run(const bgsim_dispatch_call *_Nonnull call);

/// Frees a kept call: releases its block (and so what the block captured).
void bgsim_dispatch_call_free(bgsim_dispatch_call *_Nonnull call);

/// Frees a kept call that never ran without releasing its block or context: what it captured
/// is never destroyed (a checked continuation among it would print Swift's "leaked its
/// continuation" warning, as a killed process's never does).
void bgsim_dispatch_call_abandon(bgsim_dispatch_call *_Nonnull call);

/// Whether `group` is empty now (`dispatch_group_wait` with `DISPATCH_TIME_NOW`).
int bgsim_dispatch_group_is_empty(void *_Nonnull group);

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

/// A thread's run mark and the tables set with it: the run's plain-locks table (NULL: none; see
/// `bgsim_plain_locks`: the run's when it has simulated threads) and its plain-access table
/// (NULL: none; see `bgsim_plain_accesses`: the run's when it checks plain accesses).
typedef struct bgsim_thread_marks {
    void *_Nullable mark;
    void *_Nullable locks;
    void *_Nullable accesses;
} bgsim_thread_marks;

/// Swaps the calling thread's mark and tables with `marks`: sets them, and leaves the previous
/// ones in `marks` (to restore with a second call). One call for the three.
void bgsim_thread_marks_exchange(bgsim_thread_marks *_Nonnull marks);

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

/// Sets whether the calling OS thread's dispatch semaphore and group calls are the engine's own
/// (its baton between OS-thread carriers): those are never plain waits. Returns the previous
/// setting (nonzero: the engine's).
int bgsim_engine_waits_set(int engine);

/// Whether a run checks the plain accesses of app code for data races, and how many locations
/// its detector tracks: one per run, set for the run's threads with
/// ``bgsim_run_accesses_set`` and written only by the engine (plain_accesses.c reads it).
typedef struct bgsim_plain_accesses {
    /// Nonzero: plain accesses, frees and real synchronisation are told to the engine.
    int32_t enabled;
    /// The locations the run's race detector keeps (0: a lock needs no call).
    int32_t locations;
    /// Of those, the plain ones.
    int32_t plainLocations;
    int32_t reserved;
    /// The 256-byte lines of memory that hold, or held, a plain location or a synchronisation
    /// object the detector keeps, one bit per line hashed into 32,768 (`bgsim_plain_accesses_mark`):
    /// a free that touches no marked line has nothing to forget, and is not told to the engine.
    uint64_t markedLines[512];
} bgsim_plain_accesses;

/// The engine is about to change the detector's state itself (not from a callback of this
/// shim): until ``bgsim_plain_engine_leave``, the calling thread's accesses, frees and locks are
/// not told to the engine (a dictionary growing inside the change frees its old storage and may
/// take the runtime's locks; told, they would re-enter the state being changed). Returns what
/// to pass to the leave (calls nest).
int bgsim_plain_engine_enter(void);
/// Ends what ``bgsim_plain_engine_enter`` began (`was`: its result).
void bgsim_plain_engine_leave(int was);

/// Marks the line of `address` in `table` (`markedLines`): a free there is told to the engine.
void bgsim_plain_accesses_mark(bgsim_plain_accesses *_Nonnull table, uintptr_t address);

/// An access of app code on a thread of the run `mark`: to `address`, a write when `isWrite`,
/// from the call site `site` (a return address in the app's function).
typedef void (*bgsim_plain_access_fn)(void *_Nonnull mark, void *_Nonnull address, int isWrite, void *_Nonnull site);
/// `size` bytes at `address` were freed (a Swift object or box): locations there are new state.
typedef void (*bgsim_plain_freed_fn)(void *_Nonnull mark, void *_Nonnull address, size_t size);
/// How a ``bgsim_plain_sync_fn`` call orders accesses: a real mutex, dispatch semaphore or group
/// taken or waited for (`BGSIM_SYNC_ACQUIRE`), or released, signalled or left
/// (`BGSIM_SYNC_RELEASE`); or one of the Swift concurrency runtime's own happens-before marks
/// (`BGSIM_SYNC_RUNTIME_ACQUIRE`, `BGSIM_SYNC_RUNTIME_RELEASE`: a job enqueued and run, a
/// continuation resumed, a task completed and awaited, an actor unlocked and locked), on an
/// address of the runtime's that may be a task, an actor or a lock of its own; or a mutex,
/// semaphore or group just made at `object` (`BGSIM_SYNC_NEW`): what an earlier one at that
/// address released is not its (the memory of a lock inside a library's object is freed unseen).
/// Or the iterations of a `DispatchQueue.concurrentPerform` (`dispatch_apply`) the calling thread
/// runs one after another, where `object` carries a number, not an address:
/// `BGSIM_SYNC_ITERATIONS_BEGIN` (the iteration count), `BGSIM_SYNC_ITERATION` (the index of the
/// iteration that starts), `BGSIM_SYNC_ITERATIONS_END` (the count): on a device they run on
/// several worker threads, ordered only by what they synchronize with.
enum {
    BGSIM_SYNC_ACQUIRE = 0, BGSIM_SYNC_RELEASE = 1, BGSIM_SYNC_RUNTIME_ACQUIRE = 2, BGSIM_SYNC_RUNTIME_RELEASE = 3,
    BGSIM_SYNC_NEW = 4, BGSIM_SYNC_ITERATIONS_BEGIN = 5, BGSIM_SYNC_ITERATION = 6, BGSIM_SYNC_ITERATIONS_END = 7
};

/// An edge between the threads that use `object` (`how`: a `BGSIM_SYNC_` value).
typedef void (*bgsim_plain_sync_fn)(void *_Nonnull mark, void *_Nonnull object, int how);

/// Registers the engine's side of plain accesses (Linux with glibc: this target defines
/// `swift_beginAccess`, `swift_deallocClassInstance` and `swift_deallocObject`). `engineModules`
/// lists, comma-separated, the Swift modules whose code is not the app's. Called once per
/// process, before any thread is marked; where the shim is not built nothing is seen.
void bgsim_plain_accesses_register(bgsim_plain_access_fn _Nonnull access, bgsim_plain_freed_fn _Nonnull freed,
                                   bgsim_plain_sync_fn _Nonnull sync, const char *_Nonnull engineModules);

/// 1 where plain accesses are seen (Linux with glibc, 64-bit) and the main executable has app
/// code to see (a Swift function of a module the engine did not register as its own: `bgsim`
/// itself has none), else 0. Reads the symbol table the first time; call after registering.
int bgsim_plain_accesses_supported(void);

/// The mangled name of the main executable's function that contains `pc` (from its symbol
/// table), or NULL: outside the executable, or no symbol there.
const char *_Nullable bgsim_function_symbol(const void *_Nullable pc);

/// 1 when `pc` is in app code: a Swift function of the main executable whose module the engine
/// did not register as its own (`bgsim_plain_accesses_register`); 0 otherwise, and off Linux.
int bgsim_is_app_function(uintptr_t pc);

/// Where `thread`, a thread of this process, is now (thread_samples.c; Linux with glibc on x86-64
/// and arm64, elsewhere 0): stops it for a moment with a real-time signal of the shim's own
/// (`SIGRTMAX - 3`), whose handler copies its program counter, frame pointer and stack pointer,
/// then follows its frame-pointer chain from the calling thread, reading each word with
/// `process_vm_readv` (an unmapped word ends the walk, never the process). Writes the program
/// counter, then each caller's return address less one (inside its call), to `frames`; returns
/// how many, 0 when the thread did not take the signal within 100 ms. For the hang watchdog,
/// which samples a run that made no progress; one sample at a time in the process. Code built
/// without frame pointers (C libraries) may end the chain early. The thread must have called
/// `bgsim_sample_thread_prepare` (Dispatch's worker threads, and the threads they start, block
/// every signal a handler could take).
int bgsim_sample_thread(pthread_t thread, uintptr_t *_Nonnull frames, int capacity);

/// Lets `bgsim_sample_thread` sample the calling thread: unblocks its signal there.
void bgsim_sample_thread_prepare(void);

/// The nearest 16-byte-aligned address at or below `from`, and no more than `reach` bytes below
/// it, whose word is the address of one of the main executable's Swift class metadata (a `$s…CN`
/// symbol of its symbol table), as a class instance's first word is: that address (the instance,
/// if it is one), with the metadata in `*metadata`; NULL when there is none (or off Linux).
/// Words are read with `process_vm_readv`, so an unmapped page is skipped, never a fault.
const void *_Nullable bgsim_class_instance_at_or_below(const void *_Nonnull from, size_t reach,
                                                       const void *_Nullable *_Nonnull metadata);

/// Installs, once per process, the shim's receivers of the Swift concurrency runtime's
/// happens-before marks (the `_swift_tsan_acquire` and `_swift_tsan_release` hooks the runtime
/// gives ThreadSanitizer), which pass each mark on to the hook set before (ThreadSanitizer's, in
/// a sanitized process) and, on a thread of a run that checks plain accesses, to the engine
/// (`BGSIM_SYNC_RUNTIME_*`). Returns 1 when the runtime has the hooks, else 0.
int bgsim_concurrency_edges_install(void);

/// The Swift task running on the calling thread (`swift_task_getCurrent`) and the actor it runs
/// on (the identity of `swift_task_getCurrentExecutor`: an actor, the main actor, or NULL for the
/// generic executor); both NULL outside a task, or where the runtime lacks them.
void bgsim_current_task(void *_Nullable *_Nonnull task, void *_Nullable *_Nonnull actor);

/// A point where the engine may run another simulated thread of the run whose mark is `mark`,
/// before the calling one takes a free mutex app code asked for (app_lock_points.c).
typedef void (*bgsim_app_lock_point_fn)(void *_Nonnull mark);

/// Registers the engine's side of app code's lock acquisitions as scheduling points (see
/// app_lock_points.c): only in runs that check plain accesses, on a simulated thread, before it
/// takes a free mutex that app code locked itself or through `NSLock` or `NSLocking.withLock`, or
/// a read-write lock. Where the shim is not built, nothing happens.
void bgsim_app_lock_points_register(bgsim_app_lock_point_fn _Nonnull point);

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

/// 1 where this target defines the process's clock functions (Linux), else 0: elsewhere clocks
/// stay real inside runs.
int bgsim_virtual_clocks_supported(void);

/// The C library's `clock_gettime`, never virtual: for the harness's own timing (watchdogs,
/// timeouts), which must stay real on every thread.
int bgsim_real_clock_gettime(clockid_t clock, struct timespec *_Nonnull time);

/// Whether Swift hashes deterministically in this process: the per-process seed is zero and a
/// `Set`'s or `Dictionary`'s order does not depend on its address, as under
/// `SWIFT_DETERMINISTIC_HASHING=1`. Every binary that links this target sets it when it loads
/// (deterministic_hashing.c), so app code that iterates a `Set` replays the same way in every
/// run and process.
int bgsim_hashing_is_deterministic(void);

#ifdef __cplusplus
}
#endif

#endif
