// Plain locks inside a run (shims_plain_locks.h). A simulated thread that takes a real mutex
// another simulated thread of its run holds must not make the real call: with fibers every
// simulated thread is the same OS thread, so it would wait forever on itself (or, for a recursive
// mutex, walk in); with OS-thread carriers it would keep the run's baton while it waits, so the
// holder could never run to release it. The table says who holds what; only a contended lock or
// the release of a mutex someone waits for calls the engine, so the Swift runtime's and
// Foundation's own mutexes, taken on the same threads, cost a table look-up and never reach the
// engine's code.
//
// This file defines `pthread_mutex_init`, `pthread_mutex_lock`, `_trylock` and `_unlock` (under
// `NSLock`, `NSRecursiveLock` and C mutexes), keeps the table (see shims_plain_locks.h,
// `bgsim_plain_locks`), and registers the engine's side of plain locks and waits, which the other
// plain-wait shims share (shims_internal.h): swift_mutexes.c, plain_waits.c, plain_sleeps.c and
// plain_conditions.c. A mutex behaves as glibc's kinds do (normal, recursive, error-checking).
// Linux with glibc (its mutex layout); elsewhere plain locks and waits are not seen.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

bgsim_mutex_wait_fn bgsim_plain_mutex_wait;
bgsim_mutex_released_fn bgsim_plain_mutex_released;

bgsim_object_wait_fn bgsim_plain_object_wait;
bgsim_object_signalled_one_fn bgsim_plain_object_signalled_one;

// The Swift concurrency runtime's code (libswift_Concurrency's executable segments): a mutex it
// takes is flagged (`bgsim_held_mutex.runtime`), and the engine does not preempt its holder. Found
// when the engine registers, before any run, by an address inside it; left empty when the runtime
// is linked into the main program (`-static-stdlib`: the range would be the app's own code too).
static uintptr_t concurrency_start, concurrency_end;

static void find_concurrency_runtime(void) {
    uintptr_t start, end;
    void *function = dlsym(RTLD_DEFAULT, "swift_task_getCurrent");
    if (bgsim_code_range(function, &start, &end) != 1) return;  // not found, or in the main program
    concurrency_start = start;
    concurrency_end = end;
}

static int is_concurrency_runtime(const void *caller) {
    return (uintptr_t)caller >= concurrency_start && (uintptr_t)caller < concurrency_end;
}

void bgsim_plain_locks_register(bgsim_mutex_wait_fn wait, bgsim_mutex_released_fn released,
                                bgsim_object_wait_fn objectWait, bgsim_object_signalled_one_fn signalledOne) {
    if (concurrency_end == 0) find_concurrency_runtime();
    __atomic_store_n(&bgsim_plain_mutex_released, released, __ATOMIC_RELEASE);
    __atomic_store_n(&bgsim_plain_object_wait, objectWait, __ATOMIC_RELEASE);
    __atomic_store_n(&bgsim_plain_object_signalled_one, signalledOne, __ATOMIC_RELEASE);
    __atomic_store_n(&bgsim_plain_mutex_wait, wait, __ATOMIC_RELEASE);
}

int bgsim_plain_locks_supported(void) { return 1; }

/// The calling thread's run table, when it is marked, its run has simulated threads and the
/// engine registered its side. Thread-local reads only: the Swift runtime takes mutexes while it
/// instantiates metadata, so asking the engine here would re-enter this function.
bgsim_plain_locks *bgsim_plain_locks_get(void **mark) {
    *mark = bgsim_run_mark_tls;
    if (*mark == NULL || bgsim_run_locks_tls == NULL) return NULL;
    if (__atomic_load_n(&bgsim_plain_mutex_wait, __ATOMIC_ACQUIRE) == NULL) return NULL;
    return bgsim_run_locks_tls;
}

bgsim_held_mutex *bgsim_held_entry(bgsim_plain_locks *locks, void *mutex) {
    for (int32_t index = 0; index < locks->count; index++) {
        if (locks->held[index].mutex == mutex) return &locks->held[index];
    }
    return NULL;
}

/// Records `mutex` as held by simulated thread `holder` (id plus one), taken from `caller`.
static void hold(bgsim_plain_locks *locks, void *mutex, int32_t holder, const void *caller) {
    if (locks->count == BGSIM_HELD_MUTEX_CAPACITY) {
        locks->untracked++;
        return;
    }
    bgsim_held_mutex *entry = &locks->held[locks->count++];
    entry->mutex = mutex;
    entry->holder = holder;
    entry->depth = 1;
    entry->waiters = 0;
    entry->runtime = is_concurrency_runtime(caller);
    locks->runtimeHolds += entry->runtime;
}

/// Makes a reserved entry (holder 0: released to waiters that have not run yet) held by `holder`,
/// keeping the count of threads that blocked on it meanwhile.
static void take_reserved(bgsim_plain_locks *locks, bgsim_held_mutex *entry, int32_t holder, const void *caller) {
    entry->holder = holder;
    entry->depth = 1;
    entry->runtime = is_concurrency_runtime(caller);
    locks->runtimeHolds += entry->runtime;
}

/// Drops an entry (the last one moves into its place; the order of entries means nothing).
static void drop(bgsim_plain_locks *locks, bgsim_held_mutex *entry) {
    locks->runtimeHolds -= entry->runtime;
    *entry = locks->held[--locks->count];
    locks->held[locks->count].mutex = NULL;
}

/// The glibc kind of a mutex: PTHREAD_MUTEX_NORMAL, _RECURSIVE or _ERRORCHECK (adaptive ones
/// behave as normal ones).
static int mutex_kind(pthread_mutex_t *mutex) { return mutex->__data.__kind & 3; }

typedef int (*mutex_fn)(pthread_mutex_t *);

typedef int (*mutex_init_fn)(pthread_mutex_t *, const pthread_mutexattr_t *);

/// A mutex made: new to the run's happens-before, wherever an earlier one was (an `NSLock` or a
/// Foundation object's lock, whose memory the library frees unseen, often comes back at the
/// address of the last one; it must not inherit that one's releases, or a race would be hidden
/// or not depending on the allocator).
int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attributes) {
    BGSIM_NEXT(pthread_mutex_init, mutex_init_fn);
    int status = next_pthread_mutex_init(mutex, attributes);
    if (status == 0) bgsim_plain_sync(mutex, BGSIM_SYNC_NEW);
    return status;
}

static int lock_mutex(pthread_mutex_t *mutex, const void *caller, const void *frame);

// Each of these reads its return address first, in its own frame (`BGSIM_CALLER`): an optimized
// build moves the rarely taken path (a run that checks plain accesses) into a separate cold
// function, where `__builtin_return_address(0)` would be this function, not its caller. `pthread_mutex_lock`
// reads its frame address there too: the frame-pointer chain up from it tells whether app code
// asked for the lock through Foundation (app_lock_points.c).

int pthread_mutex_lock(pthread_mutex_t *mutex) {
    BGSIM_CALLER(caller);
    if (__builtin_expect(bgsim_lock_calibration_tls != 0, 0)) bgsim_app_lock_points_note(caller);
    int status = lock_mutex(mutex, caller, __builtin_frame_address(0));
    if (status == 0) bgsim_plain_mutex_sync(mutex, BGSIM_SYNC_ACQUIRE, caller);
    return status;
}

static int lock_mutex(pthread_mutex_t *mutex, const void *caller, const void *frame) {
    BGSIM_NEXT(pthread_mutex_lock, mutex_fn);
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    if (locks == NULL) return next_pthread_mutex_lock(mutex);
    int pointed = 0;
    for (;;) {
        int32_t me = locks->current;
        bgsim_held_mutex *entry = bgsim_held_entry(locks, mutex);
        if (entry == NULL) {
            // Free for the run: once per call, app code's lock is a point where another thread
            // may run first (and may take it: then this one waits below); so is a lock of one of
            // Foundation's polling loops (foundation_polls.c).
            if (me != 0 && !pointed) {
                pointed = 1;
                if (bgsim_foundation_poll(mark, caller) || bgsim_app_lock_point(mark, mutex, caller, frame)) continue;
            }
            int status = next_pthread_mutex_lock(mutex);  // free, or held outside the run
            if (status == 0 && me != 0) hold(locks, mutex, me, caller);
            return status;
        }
        if (entry->holder == 0) {
            // Released to the threads that waited for it, none of which has run since: on a
            // device they wake on other cores and one of them takes it, so a thread that lets it
            // go and takes it again in a loop with no scheduling point (Foundation's
            // `waitUntilAllOperationsAreFinished` polling the queue's lock) does not keep it from
            // them forever. The engine says whether the caller may take it (a woken waiter, or
            // no woken waiter can still come) or waits behind them.
            // Loop level or teardown (no simulated thread runs meanwhile): taken and given back
            // for real there, the reservation and its waiters' count left as they are.
            if (me == 0) return next_pthread_mutex_lock(mutex);
            entry->waiters++;
            int outcome = bgsim_plain_mutex_wait(mark, mutex);
            if (outcome == BGSIM_MUTEX_TAKE_RESERVED) {
                entry = bgsim_held_entry(locks, mutex);  // still reserved: no other thread ran
                entry->waiters--;
                int status = next_pthread_mutex_lock(mutex);  // free, or held outside the run
                if (status == 0) take_reserved(locks, entry, me, caller);
                return status;
            }
            if (outcome != 0) return EDEADLK;  // deadlock or unwinding
            continue;
        }
        // Held by a simulated thread of this run.
        if (me == 0) return EDEADLK;  // loop level or teardown: no simulated thread to block
        if (entry->holder == me) {
            if (mutex_kind(mutex) == PTHREAD_MUTEX_RECURSIVE) {
                int status = next_pthread_mutex_lock(mutex);
                if (status == 0) entry->depth++;
                return status;
            }
            if (mutex_kind(mutex) == PTHREAD_MUTEX_ERRORCHECK) return EDEADLK;
            // A normal mutex taken twice by its holder waits forever on a device: the engine
            // reports the deadlock (the thread waits on a lock it holds).
        }
        entry->waiters++;
        if (bgsim_plain_mutex_wait(mark, mutex) != 0) return EDEADLK;  // deadlock or unwinding
    }
}

static int try_mutex(pthread_mutex_t *mutex, const void *caller);

int pthread_mutex_trylock(pthread_mutex_t *mutex) {
    BGSIM_CALLER(caller);
    int status = try_mutex(mutex, caller);
    if (status == 0) bgsim_plain_mutex_sync(mutex, BGSIM_SYNC_ACQUIRE, caller);
    return status;
}

static int try_mutex(pthread_mutex_t *mutex, const void *caller) {
    BGSIM_NEXT(pthread_mutex_trylock, mutex_fn);
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    if (locks == NULL) return next_pthread_mutex_trylock(mutex);
    int32_t me = locks->current;
    bgsim_held_mutex *entry = bgsim_held_entry(locks, mutex);
    if (entry != NULL && entry->holder == 0) {
        // Released to waiters that have not run yet (see `lock_mutex`): a try takes it, as it
        // could on a device, and the woken waiters find it held and wait again.
        int status = next_pthread_mutex_trylock(mutex);
        if (status == 0 && me != 0) take_reserved(locks, entry, me, caller);
        return status;
    }
    if (entry != NULL && entry->holder != me) return EBUSY;
    int status = next_pthread_mutex_trylock(mutex);
    if (status == 0 && me != 0) {
        if (entry != NULL) entry->depth++;  // a recursive mutex its holder takes again
        else hold(locks, mutex, me, caller);
    }
    return status;
}

/// Before a simulated thread lets go of a mutex app code took (its last hold of it): a point
/// where the engine may run another thread while the lock is still held, as a device may preempt
/// a thread anywhere inside its critical section. Another thread's `trylock` then fails and its
/// fallback runs (a fallback that touches shared state unguarded is found), and a `lock` waits.
/// Only app code's locks, as at `lock_mutex` (app_lock_points.c).
static void unlock_point(pthread_mutex_t *mutex, const void *caller, const void *frame) {
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    if (locks == NULL || locks->current == 0) return;
    bgsim_held_mutex *entry = bgsim_held_entry(locks, mutex);
    if (entry == NULL || entry->holder != locks->current || entry->depth > 1) return;
    (void)bgsim_app_lock_point(mark, mutex, caller, frame);
}

int pthread_mutex_unlock(pthread_mutex_t *mutex) {
    BGSIM_CALLER(caller);
    BGSIM_NEXT(pthread_mutex_unlock, mutex_fn);
    if (__builtin_expect(bgsim_lock_calibration_tls != 0, 0)) bgsim_app_lock_points_note(caller);
    if (__builtin_expect(bgsim_run_locks_tls != NULL, 0)) unlock_point(mutex, caller, __builtin_frame_address(0));
    bgsim_plain_mutex_sync(mutex, BGSIM_SYNC_RELEASE, caller);
    int status = next_pthread_mutex_unlock(mutex);
    if (status != 0) return status;
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    if (locks == NULL) return status;
    bgsim_held_mutex *entry = bgsim_held_entry(locks, mutex);
    if (entry == NULL) return status;
    if (entry->holder == locks->current && entry->depth > 1) {
        entry->depth--;
        return status;
    }
    // A reserved one given back by loop-level code that took it (see `lock_mutex`): still theirs.
    if (entry->holder == 0) return status;
    // Released (by its holder, or, as a normal mutex allows, by another thread). With waiters it
    // stays listed, reserved for them (holder 0) until one of them runs (see `lock_mutex`).
    if (entry->waiters == 0) {
        drop(locks, entry);
        return status;
    }
    locks->runtimeHolds -= entry->runtime;
    entry->holder = 0;
    entry->depth = 0;
    entry->waiters = 0;
    entry->runtime = 0;
    bgsim_plain_mutex_released(mark, mutex);
    return status;
}

#else

// Without glibc's mutex layout (macOS, other C libraries): plain locks and waits are not seen.
void bgsim_plain_locks_register(bgsim_mutex_wait_fn wait, bgsim_mutex_released_fn released,
                                bgsim_object_wait_fn objectWait, bgsim_object_signalled_one_fn signalledOne) {
    (void)wait;
    (void)released;
    (void)objectWait;
    (void)signalledOne;
}

int bgsim_plain_locks_supported(void) { return 0; }

#endif
