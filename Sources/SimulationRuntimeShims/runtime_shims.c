// See SimulationRuntimeShims.h. The one place the engine interposes C library functions.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static BGSIM_TLS void *run_mark;
static BGSIM_TLS void *run_locks;
static BGSIM_TLS int engine_waits;

int bgsim_engine_waits_set(int engine) {
    int previous = engine_waits;
    engine_waits = engine;
    return previous;
}

void *bgsim_run_mark_get(void) { return run_mark; }

#if defined(__GLIBC__)
static void note_carrier(void *locks);
#endif

void bgsim_thread_marks_exchange(bgsim_thread_marks *marks) {
    bgsim_thread_marks previous = {run_mark, run_locks, bgsim_run_accesses_tls};
    run_mark = marks->mark;
    run_locks = marks->locks;
    bgsim_run_accesses_tls = marks->accesses;
#if defined(__GLIBC__)
    if (marks->locks != NULL) note_carrier(marks->locks);  // a Swift Mutex names its owner by kernel thread id
#endif
    *marks = previous;
}

// Written once per process before the first run (registration happens before any thread is
// marked), read by marked threads: plain atomics keep the read well defined.
static bgsim_virtual_now_fn virtual_now;
static int64_t epoch_seconds;

void bgsim_virtual_clocks_register(bgsim_virtual_now_fn now, int64_t epoch) {
    __atomic_store_n(&epoch_seconds, epoch, __ATOMIC_RELEASE);
    __atomic_store_n(&virtual_now, now, __ATOMIC_RELEASE);
}

static bgsim_loop_sleep_fn loop_slept;

void bgsim_loop_sleep_register(bgsim_loop_sleep_fn slept) {
    __atomic_store_n(&loop_slept, slept, __ATOMIC_RELEASE);
}

/// The virtual time of the calling thread's run, in microseconds, or -1 when the thread is not
/// in a run (or nothing is registered).
static int64_t virtual_microseconds(void) {
    void *mark = run_mark;
    if (mark == NULL) return -1;
    bgsim_virtual_now_fn now = __atomic_load_n(&virtual_now, __ATOMIC_ACQUIRE);
    if (now == NULL) return -1;
    int64_t micros = now(mark);
    return micros < 0 ? 0 : micros;
}

#if defined(__linux__)

int bgsim_virtual_clocks_supported(void) { return 1; }

/// A dispatch timeout as a virtual instant (microseconds; -1: forever). Inside a run `DispatchTime`
/// is the virtual monotonic clock in nanoseconds (uptime at the run's start included); a wall time
/// is the complement of nanoseconds since 1970 (libdispatch's encoding), on the virtual wall clock.
int64_t bgsim_virtual_deadline(uint64_t timeout) {
    if (timeout == ~0ull) return -1;
    if ((int64_t)timeout < 0) {
        int64_t micros = (int64_t)(~timeout / 1000) - __atomic_load_n(&epoch_seconds, __ATOMIC_ACQUIRE) * 1000000;
        return micros < 0 ? 0 : micros;
    }
    int64_t micros = (int64_t)(timeout / 1000) - (int64_t)BGSIM_VIRTUAL_UPTIME_AT_START_SECONDS * 1000000;
    return micros < 0 ? 0 : micros;
}

int64_t bgsim_virtual_instant_from_wall(double secondsSince1970) {
    // The epoch is subtracted first: what is left is small, and exact to well under a microsecond.
    double since_start = secondsSince1970 - (double)__atomic_load_n(&epoch_seconds, __ATOMIC_ACQUIRE);
    if (!(since_start > 0)) return 0;
    if (since_start > 1.0e12) return -1;  // tens of thousands of years: never, in a run
    return (int64_t)(since_start * 1e6 + 0.5);
}

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
static clock_gettime_fn libc_clock_gettime;

// Resolved at load time, before any thread but the loader's runs.
__attribute__((constructor(101))) static void resolve_libc(void) {
    libc_clock_gettime = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
}

int bgsim_real_clock_gettime(clockid_t clock, struct timespec *time) {
    if (libc_clock_gettime != NULL) return libc_clock_gettime(clock, time);
    return (int)syscall(SYS_clock_gettime, clock, time);
}

/// Whether `clock` measures elapsed or wall time (virtualised) rather than CPU time (real).
static int is_time_clock(clockid_t clock) {
    switch (clock) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
        return 1;
    default:
        return 0;
    }
}

int clock_gettime(clockid_t clock, struct timespec *time) {
    int64_t micros = is_time_clock(clock) ? virtual_microseconds() : -1;
    if (micros < 0) return bgsim_real_clock_gettime(clock, time);
    int64_t seconds = micros / 1000000;
    if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) {
        seconds += __atomic_load_n(&epoch_seconds, __ATOMIC_ACQUIRE);
    } else {
        seconds += BGSIM_VIRTUAL_UPTIME_AT_START_SECONDS;
    }
    time->tv_sec = (time_t)seconds;
    time->tv_nsec = (long)((micros % 1000000) * 1000);
    return 0;
}

int gettimeofday(struct timeval *restrict value, void *restrict zone) {
    struct timespec now;
    int status = clock_gettime(CLOCK_REALTIME, &now);
    if (status != 0) return status;
    // `value` is declared non-null by the C library's header.
    value->tv_sec = now.tv_sec;
    value->tv_usec = (suseconds_t)(now.tv_nsec / 1000);
    if (zone != NULL) {
        struct timezone *utc = zone;
        utc->tz_minuteswest = 0;
        utc->tz_dsttime = 0;
    }
    return 0;
}

time_t time(time_t *result) {
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) != 0) return (time_t)-1;
    if (result != NULL) *result = now.tv_sec;
    return now.tv_sec;
}

/// Where a call this file let through goes, resolved once per slot: a sanitizer's interceptor
/// of `name` when the process has one, else the next definition after this binary's (Dispatch's
/// own).
///
/// A `--sanitize=thread` build links ThreadSanitizer's runtime into the main binary, and it
/// intercepts `dispatch_async` and friends there to record the happens-before edge from the
/// caller to the block. This file's definitions, also in the main binary, take the name
/// instead, and `RTLD_NEXT` skips the interceptor: every hand-over through Dispatch then looked
/// like a race (a CI run reported one on an object created before `DispatchQueue.async` and used
/// in the block). Sanitizers export each interceptor as `__interceptor_<name>`, and it calls
/// the library's own definition itself, so the chain is this file, the sanitizer, Dispatch.
void *bgsim_next_symbol(void **slot, const char *name) {
    void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (function == NULL) {
        char interceptor[64];
        snprintf(interceptor, sizeof interceptor, "__interceptor_%s", name);
        function = dlsym(RTLD_DEFAULT, interceptor);
        if (function == NULL) function = dlsym(RTLD_NEXT, name);
        __atomic_store_n(slot, function, __ATOMIC_RELEASE);
    }
    return function;
}


#if defined(__GLIBC__)
#include <errno.h>
#include <link.h>
#include <pthread.h>

struct code_range_query {
    uintptr_t inside, start, end;
    int objects, in_main_program;
};

static int code_range_of_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct code_range_query *query = data;
    int is_main_program = query->objects++ == 0;  // the main program comes first
    uintptr_t start = UINTPTR_MAX, end = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_X) == 0) continue;
        uintptr_t low = info->dlpi_addr + header->p_vaddr, high = low + header->p_memsz;
        if (low < start) start = low;
        if (high > end) end = high;
    }
    if (query->inside < start || query->inside >= end) return 0;
    query->start = start;
    query->end = end;
    query->in_main_program = is_main_program;
    return 1;
}

int bgsim_code_range(const void *inside, uintptr_t *start, uintptr_t *end) {
    struct code_range_query query = {(uintptr_t)inside, 0, 0, 0, 0};
    if (inside == NULL || dl_iterate_phdr(code_range_of_object, &query) == 0) return 0;
    *start = query.start;
    *end = query.end;
    return query.in_main_program ? 2 : 1;
}

// Plain locks inside a run (see the header). A simulated thread that takes a real mutex another
// simulated thread of its run holds must not make the real call: with fibers every simulated
// thread is the same OS thread, so it would wait forever on itself (or, for a recursive mutex,
// walk in); with OS-thread carriers it would keep the run's baton while it waits, so the holder
// could never run to release it. The table says who holds what; only a contended lock or the
// release of a mutex someone waits for calls the engine, so the Swift runtime's and Foundation's
// own mutexes, taken on the same threads, cost a table look-up and never reach the engine's code.
static bgsim_mutex_wait_fn plain_mutex_wait;
static bgsim_mutex_released_fn plain_mutex_released;

static bgsim_object_wait_fn plain_object_wait;
static bgsim_object_signalled_one_fn plain_object_signalled_one;

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
    __atomic_store_n(&plain_mutex_released, released, __ATOMIC_RELEASE);
    __atomic_store_n(&plain_object_wait, objectWait, __ATOMIC_RELEASE);
    __atomic_store_n(&plain_object_signalled_one, signalledOne, __ATOMIC_RELEASE);
    __atomic_store_n(&plain_mutex_wait, wait, __ATOMIC_RELEASE);
}

int bgsim_plain_locks_supported(void) { return 1; }

/// The calling thread's run table, when it is marked, its run has simulated threads and the
/// engine registered its side. Thread-local reads only: the Swift runtime takes mutexes while it
/// instantiates metadata, so asking the engine here would re-enter this function.
static bgsim_plain_locks *plain_locks(void **mark) {
    *mark = run_mark;
    if (*mark == NULL || run_locks == NULL) return NULL;
    if (__atomic_load_n(&plain_mutex_wait, __ATOMIC_ACQUIRE) == NULL) return NULL;
    return run_locks;
}

static bgsim_held_mutex *held_entry(bgsim_plain_locks *locks, void *mutex) {
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

/// The calling OS thread's kernel id, asked once (a mark is set for every loop of a run).
static BGSIM_TLS int32_t carrier_tid;
/// The serial of the last table this thread noted itself in.
static BGSIM_TLS uint64_t noted_serial;
static uint64_t next_table_serial;

/// Records the calling OS thread as a carrier of the run whose table `locks` is: only the thread
/// holding the run's baton sets a mark with a table, so this is the one writer. One comparison
/// when this thread noted itself there last.
static void note_carrier(void *locks) {
    bgsim_plain_locks *table = locks;
    if (table->serial != 0 && table->serial == noted_serial) return;
    if (table->serial == 0) table->serial = __atomic_add_fetch(&next_table_serial, 1, __ATOMIC_RELAXED);
    noted_serial = table->serial;
    if (carrier_tid == 0) carrier_tid = (int32_t)gettid();
    for (int32_t index = 0; index < table->carrierCount; index++) {
        if (table->carriers[index] == carrier_tid) return;
    }
    if (table->carrierCount < BGSIM_CARRIER_CAPACITY) table->carriers[table->carrierCount++] = carrier_tid;
}

/// Whether kernel thread `tid` carried jobs of the run whose table `locks` is.
static int is_carrier(bgsim_plain_locks *locks, int32_t tid) {
    for (int32_t index = 0; index < locks->carrierCount; index++) {
        if (locks->carriers[index] == tid) return 1;
    }
    return 0;
}

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
    bgsim_plain_locks *locks = plain_locks(&mark);
    if (locks == NULL) return next_pthread_mutex_lock(mutex);
    int pointed = 0;
    for (;;) {
        int32_t me = locks->current;
        bgsim_held_mutex *entry = held_entry(locks, mutex);
        if (entry == NULL) {
            // Free for the run: once per call, app code's lock is a point where another thread
            // may run first (and may take it: then this one waits below).
            if (me != 0 && !pointed) {
                pointed = 1;
                if (bgsim_app_lock_point(mark, caller, frame)) continue;
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
            int outcome = plain_mutex_wait(mark, mutex);
            if (outcome == BGSIM_MUTEX_TAKE_RESERVED) {
                entry = held_entry(locks, mutex);  // still reserved: no other thread ran
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
        if (plain_mutex_wait(mark, mutex) != 0) return EDEADLK;  // deadlock or unwinding
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
    bgsim_plain_locks *locks = plain_locks(&mark);
    if (locks == NULL) return next_pthread_mutex_trylock(mutex);
    int32_t me = locks->current;
    bgsim_held_mutex *entry = held_entry(locks, mutex);
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

int pthread_mutex_unlock(pthread_mutex_t *mutex) {
    BGSIM_CALLER(caller);
    BGSIM_NEXT(pthread_mutex_unlock, mutex_fn);
    bgsim_plain_mutex_sync(mutex, BGSIM_SYNC_RELEASE, caller);
    int status = next_pthread_mutex_unlock(mutex);
    if (status != 0) return status;
    void *mark;
    bgsim_plain_locks *locks = plain_locks(&mark);
    if (locks == NULL) return status;
    bgsim_held_mutex *entry = held_entry(locks, mutex);
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
    plain_mutex_released(mark, mutex);
    return status;
}

// Swift's `Mutex` (Synchronization) on Linux is a priority-inheritance futex, not a pthread
// mutex: the word holds its owner's kernel thread id (FUTEX_WAITERS set once someone waits), the
// uncontended lock and unlock are atomics in the app's own code, and only contention reaches the
// kernel, through `syscall(SYS_futex, word, FUTEX_LOCK_PI | …)` and `FUTEX_UNLOCK_PI`. A simulated
// thread that made that call while another simulated thread of its run held the lock would wait
// in the kernel for a holder that can only run once it gives the baton back: with fibers the
// kernel even sees the owner as the caller (one OS thread) and Swift traps ("Recursive call to
// lock Mutex"). So, when the owner is an OS thread that carried the run's jobs, the lock is done
// here as the kernel would do it, blocking only the simulated thread (in the engine) until the
// holder's unlock, which the waiters bit sends here too, wakes it. An owner outside the run (a
// thread of the process's own) keeps the kernel's wait, as does every other syscall.
#include <linux/futex.h>
#include <stdarg.h>

typedef long (*syscall_fn)(long, ...);

/// Does a PI-futex operation of a simulated thread here (see above); returns 1 with `*result` set
/// (errno too) when it did, 0 to leave it to the kernel.
static int simulated_pi_futex(uint32_t *word, int op, long *result) {
    int command = op & FUTEX_CMD_MASK;
#ifdef FUTEX_LOCK_PI2
    if (command == FUTEX_LOCK_PI2) command = FUTEX_LOCK_PI;
#endif
    if (command != FUTEX_LOCK_PI && command != FUTEX_TRYLOCK_PI && command != FUTEX_UNLOCK_PI) return 0;
    void *mark;
    bgsim_plain_locks *locks = plain_locks(&mark);
    if (locks == NULL) return 0;
    if (carrier_tid == 0) carrier_tid = (int32_t)gettid();
    if (command == FUTEX_UNLOCK_PI) {
        // Released (a waiter set the bit): simulated waiters try again; the kernel's own waiters,
        // if any, are woken by the kernel's unlock, which also clears the word.
        uint32_t owner = __atomic_load_n(word, __ATOMIC_RELAXED) & FUTEX_TID_MASK;
        if (owner != (uint32_t)carrier_tid) {
            if (owner != 0 && !is_carrier(locks, (int32_t)owner)) return 0;  // the kernel answers (EPERM)
            // Free, or held by another simulated thread of the run: this thread went on without
            // the lock when the run gave its wait up (unwinding). Left alone.
            *result = 0;
            return 1;
        }
        BGSIM_NEXT(syscall, syscall_fn);
        *result = next_syscall(SYS_futex, word, op, 0, NULL, NULL, 0);
        if (*result == 0) plain_mutex_released(mark, word);
        return 1;
    }
    if (locks->current == 0) return 0;  // loop level or teardown's driver: no simulated thread to block
    for (;;) {
        uint32_t value = __atomic_load_n(word, __ATOMIC_ACQUIRE);
        uint32_t owner = value & FUTEX_TID_MASK;
        if (owner == 0) {
            if (__atomic_compare_exchange_n(word, &value, (uint32_t)carrier_tid | (value & FUTEX_WAITERS), 0,
                                            __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
                *result = 0;
                return 1;
            }
            continue;
        }
        if (!is_carrier(locks, (int32_t)owner)) return 0;  // held outside the run: the kernel waits
        if (command == FUTEX_TRYLOCK_PI) {
            errno = EAGAIN;  // not EDEADLK, which Swift traps on: a try just fails
            *result = -1;
            return 1;
        }
        // Held by a simulated thread of the run (with fibers possibly by the caller itself: a
        // recursive lock waits forever, a deadlock, as it would on a device).
        if ((value & FUTEX_WAITERS) == 0
            && !__atomic_compare_exchange_n(word, &value, value | FUTEX_WAITERS, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) continue;
        if (plain_mutex_wait(mark, word) != 0) {
            // The run gave the wait up (it is unwound): go on as if taken; the unlock that follows
            // finds another owner and is left alone.
            *result = 0;
            return 1;
        }
    }
}

long syscall(long number, ...) {
    va_list arguments;
    va_start(arguments, number);
    long a = va_arg(arguments, long), b = va_arg(arguments, long), c = va_arg(arguments, long);
    long d = va_arg(arguments, long), e = va_arg(arguments, long), f = va_arg(arguments, long);
    va_end(arguments);
    long result;
    if (number == SYS_futex && simulated_pi_futex((uint32_t *)a, (int)b, &result)) return result;
    BGSIM_NEXT(syscall, syscall_fn);
    return next_syscall(number, a, b, c, d, e, f);
}

// Plain waits: a dispatch semaphore or group a simulated thread waits on. The real wait would
// block the run's one OS thread (fibers) or keep its baton, so the signal another simulated
// thread would send could never come. Instead the shim tries without waiting and, when that
// fails, blocks only the simulated thread (in the engine) until a simulated thread of the run
// signals or leaves, or until the timeout's virtual deadline; then it tries again. A signal from
// a thread outside the run is not seen (real threads inside a run are escapes of their own).
typedef intptr_t (*dispatch_wait_fn)(void *, uint64_t);
typedef intptr_t (*dispatch_signal_fn)(void *);
typedef void (*dispatch_leave_fn)(void *);

/// A wait on `object` through `try_wait` (the library's own wait, called with DISPATCH_TIME_NOW).
static intptr_t plain_wait(void *object, uint64_t timeout, int kind, dispatch_wait_fn try_wait) {
    // The engine's baton first, before the table is read: a carrier waiting for the baton does
    // not hold it, so another thread may be writing the table meanwhile.
    if (engine_waits) return try_wait(object, timeout);
    void *mark;
    bgsim_plain_locks *locks = plain_locks(&mark);
    bgsim_object_wait_fn wait = __atomic_load_n(&plain_object_wait, __ATOMIC_ACQUIRE);
    if (locks == NULL || locks->current == 0 || wait == NULL) return try_wait(object, timeout);
    int64_t deadline = bgsim_virtual_deadline(timeout);
    for (;;) {
        intptr_t status = try_wait(object, 0);
        if (status == 0 || timeout == 0) return status;
        locks->objectWaiters++;
        int outcome = wait(mark, object, kind, deadline);
        locks->objectWaiters--;
        if (outcome != 0) return status;  // the deadline passed, or the run gave the wait up
    }
}

/// After a signal or leave on `object`: the run's simulated threads waiting on it try again.
static void plain_signalled(void *object) {
    // The engine's baton: its signal has just handed the run to another thread, which may be
    // writing the table now (a ThreadSanitizer report when the check came after the read).
    if (engine_waits) return;
    void *mark;
    bgsim_plain_locks *locks = plain_locks(&mark);
    if (locks != NULL && locks->objectWaiters > 0) plain_mutex_released(mark, object);
}

typedef void *(*dispatch_create_fn)(intptr_t);
typedef void *(*dispatch_group_create_fn)(void);

/// A semaphore or group made: new to the run's happens-before (see `pthread_mutex_init`).
void *dispatch_semaphore_create(intptr_t value) {
    BGSIM_NEXT(dispatch_semaphore_create, dispatch_create_fn);
    void *semaphore = next_dispatch_semaphore_create(value);
    if (semaphore != NULL) bgsim_plain_sync(semaphore, BGSIM_SYNC_NEW);
    return semaphore;
}

void *dispatch_group_create(void) {
    BGSIM_NEXT(dispatch_group_create, dispatch_group_create_fn);
    void *group = next_dispatch_group_create();
    if (group != NULL) bgsim_plain_sync(group, BGSIM_SYNC_NEW);
    return group;
}

intptr_t dispatch_semaphore_wait(void *semaphore, uint64_t timeout) {
    BGSIM_NEXT(dispatch_semaphore_wait, dispatch_wait_fn);
    intptr_t status = plain_wait(semaphore, timeout, BGSIM_PLAIN_WAIT_SEMAPHORE, next_dispatch_semaphore_wait);
    if (status == 0 && !engine_waits) bgsim_plain_sync(semaphore, BGSIM_SYNC_ACQUIRE);
    return status;
}

intptr_t dispatch_semaphore_signal(void *semaphore) {
    BGSIM_NEXT(dispatch_semaphore_signal, dispatch_signal_fn);
    if (!engine_waits) bgsim_plain_sync(semaphore, BGSIM_SYNC_RELEASE);
    intptr_t woke = next_dispatch_semaphore_signal(semaphore);
    plain_signalled(semaphore);
    return woke;
}

intptr_t dispatch_group_wait(void *group, uint64_t timeout) {
    BGSIM_NEXT(dispatch_group_wait, dispatch_wait_fn);
    intptr_t status = plain_wait(group, timeout, BGSIM_PLAIN_WAIT_GROUP, next_dispatch_group_wait);
    if (status == 0 && !engine_waits) bgsim_plain_sync(group, BGSIM_SYNC_ACQUIRE);
    return status;
}

void dispatch_group_leave(void *group) {
    BGSIM_NEXT(dispatch_group_leave, dispatch_leave_fn);
    if (!engine_waits) bgsim_plain_sync(group, BGSIM_SYNC_RELEASE);
    next_dispatch_group_leave(group);
    plain_signalled(group);
    bgsim_real_dispatch_group_left(group);
}

// Read-write locks (`pthread_rwlock_t`): a reader-writer cache behind one. A simulated thread
// that takes a lock another simulated thread holds the other way waits as on a plain wait above
// (try, then wait in the engine until a simulated thread of the run unlocks it, then try again);
// outside a run it takes the lock for real. For the data-race detector a lock taken either way
// acquires, and an unlock releases, as a mutex does (so a race between two readers' accesses
// made outside the lock may be hidden, never a reader's against a writer's).
typedef int (*rwlock_fn)(pthread_rwlock_t *);
typedef int (*rwlock_init_fn)(pthread_rwlock_t *, const pthread_rwlockattr_t *);

/// A read-write lock made: new to the run's happens-before (see `pthread_mutex_init`).
int pthread_rwlock_init(pthread_rwlock_t *rwlock, const pthread_rwlockattr_t *attributes) {
    BGSIM_NEXT(pthread_rwlock_init, rwlock_init_fn);
    int status = next_pthread_rwlock_init(rwlock, attributes);
    if (status == 0) bgsim_plain_sync(rwlock, BGSIM_SYNC_NEW);
    return status;
}

/// `plain_wait`'s try for a read lock: a try with timeout 0, the real lock otherwise.
static intptr_t read_lock_wait(void *rwlock, uint64_t timeout) {
    BGSIM_NEXT(pthread_rwlock_tryrdlock, rwlock_fn);
    BGSIM_NEXT(pthread_rwlock_rdlock, rwlock_fn);
    return timeout == 0 ? next_pthread_rwlock_tryrdlock(rwlock) : next_pthread_rwlock_rdlock(rwlock);
}

/// `plain_wait`'s try for a write lock.
static intptr_t write_lock_wait(void *rwlock, uint64_t timeout) {
    BGSIM_NEXT(pthread_rwlock_trywrlock, rwlock_fn);
    BGSIM_NEXT(pthread_rwlock_wrlock, rwlock_fn);
    return timeout == 0 ? next_pthread_rwlock_trywrlock(rwlock) : next_pthread_rwlock_wrlock(rwlock);
}

/// Takes `rwlock` through `wait_fn`: 0, or the lock's error; EDEADLK when the run gave the wait
/// up (a deadlock, or the run is being unwound: the lock is not taken). On a simulated thread,
/// app code's lock is first a point where another thread may run (app_lock_points.c).
static int rwlock_lock(pthread_rwlock_t *rwlock, dispatch_wait_fn wait_fn, const void *caller, const void *frame) {
    void *mark;
    bgsim_plain_locks *locks = plain_locks(&mark);
    if (locks != NULL && locks->current != 0) bgsim_app_lock_point(mark, caller, frame);
    int status = (int)plain_wait(rwlock, ~(uint64_t)0, BGSIM_PLAIN_WAIT_RWLOCK, wait_fn);
    if (status == EBUSY) return EDEADLK;
    if (status == 0 && !engine_waits) bgsim_plain_mutex_sync(rwlock, BGSIM_SYNC_ACQUIRE, caller);
    return status;
}

int pthread_rwlock_rdlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    return rwlock_lock(rwlock, read_lock_wait, caller, __builtin_frame_address(0));
}

int pthread_rwlock_wrlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    return rwlock_lock(rwlock, write_lock_wait, caller, __builtin_frame_address(0));
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    int status = (int)read_lock_wait(rwlock, 0);
    if (status == 0) bgsim_plain_mutex_sync(rwlock, BGSIM_SYNC_ACQUIRE, caller);
    return status;
}

int pthread_rwlock_trywrlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    int status = (int)write_lock_wait(rwlock, 0);
    if (status == 0) bgsim_plain_mutex_sync(rwlock, BGSIM_SYNC_ACQUIRE, caller);
    return status;
}

int pthread_rwlock_unlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    BGSIM_NEXT(pthread_rwlock_unlock, rwlock_fn);
    bgsim_plain_mutex_sync(rwlock, BGSIM_SYNC_RELEASE, caller);
    int status = next_pthread_rwlock_unlock(rwlock);
    if (status == 0) plain_signalled(rwlock);
    return status;
}

/// An absolute time on `clock` as a virtual instant in microseconds (rounded up: never early).
static int64_t virtual_instant(clockid_t clock, const struct timespec *time) {
    int64_t micros = (int64_t)time->tv_sec * 1000000 + (time->tv_nsec + 999) / 1000;
    int64_t base = clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE
        ? __atomic_load_n(&epoch_seconds, __ATOMIC_ACQUIRE) * 1000000
        : (int64_t)BGSIM_VIRTUAL_UPTIME_AT_START_SECONDS * 1000000;
    micros -= base;
    return micros < 0 ? 0 : micros;
}

// Sleeps: `Thread.sleep(forTimeInterval:)` (a `nanosleep`), `usleep`, `sleep` on a run's
// simulated thread. The real sleep would stop the whole run (fibers) for real time while its
// virtual clock stood still. Instead the sleeping simulated thread alone waits, for that long on
// the virtual clock (a plain wait with only a deadline: nothing signals it).

/// The address every sleep waits on (nothing signals it).
static char sleeping;

/// Sleeps the calling simulated thread until the virtual instant `until` (microseconds): 1 when
/// it did, or when the caller is app code on a run's thread with no simulated thread to wait
/// (the loop level: the sleep moves the run's clocks there, ``bgsim_loop_sleep_fn``); 0 when
/// the caller is not in a run (the real call is to be made).
static int plain_sleep_until(int64_t until) {
    if (engine_waits) return 0;
    void *mark;
    bgsim_plain_locks *locks = plain_locks(&mark);
    bgsim_object_wait_fn wait = __atomic_load_n(&plain_object_wait, __ATOMIC_ACQUIRE);
    int64_t now = virtual_microseconds();
    if (now < 0) return 0;
    if (locks == NULL || locks->current == 0 || wait == NULL) {
        bgsim_loop_sleep_fn slept = __atomic_load_n(&loop_slept, __ATOMIC_ACQUIRE);
        if (run_mark == NULL || slept == NULL) return 0;
        if (until > now) slept(run_mark, until - now);
        return 1;
    }
    if (until > now) (void)wait(mark, &sleeping, BGSIM_PLAIN_WAIT_SLEEP, until);
    return 1;
}

/// A relative time in microseconds, rounded up, and at least one: a real sleep always takes some
/// time, and code that sleeps until a clock reading passes a deadline (Foundation's
/// `Thread.sleep` sleeps again for what is left, down to a fraction of a nanosecond) needs the
/// clock to move, or it never stops.
static int64_t relative_micros(const struct timespec *time) {
    if (time->tv_sec < 0 || time->tv_nsec < 0) return 1;
    int64_t micros = (int64_t)time->tv_sec * 1000000 + (time->tv_nsec + 999) / 1000;
    return micros > 0 ? micros : 1;
}

/// Consecutive zero-length sleeps of this thread at one virtual instant (see `zero_sleep`).
static BGSIM_TLS uint32_t zero_sleeps;
static BGSIM_TLS int64_t zero_sleeps_at;

/// A sleep of zero length on a run's thread: Core Foundation's spin lock backs off with
/// `sleep(0)` while another thread holds it, and when that is a thread of another run in the same
/// process (a campaign's other job, a test running beside it) a microsecond of virtual time per
/// back-off made the run's trace depend on the other run's timing. So the first 10,000 in a row at
/// one virtual instant are real yields (1: done); then one is a sleep of a microsecond of virtual
/// time (0), so that a loop polling a flag another simulated thread of its run sets lets it run.
/// `sleep(0)` and `usleep(0)` only: a zero-length `nanosleep` is Foundation's `Thread.sleep`
/// sleeping what is left of its interval when that rounds down to no nanoseconds (the virtual
/// uptime it reads back falls short of its deadline by a rounding error), and it loops until
/// the uptime passes the deadline, so it is a microsecond of virtual time at once, as any sleep
/// (as real yields, 10,000 of them made every `Thread.sleep` cost milliseconds of real time).
static int zero_sleep(int64_t now) {
    if (zero_sleeps_at != now) {
        zero_sleeps_at = now;
        zero_sleeps = 0;
    }
    if (zero_sleeps >= 10000) {
        zero_sleeps = 0;
        return 0;
    }
    zero_sleeps++;
    sched_yield();
    return 1;
}

typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);
typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);
typedef int (*usleep_fn)(useconds_t);
typedef unsigned int (*sleep_fn)(unsigned int);

int nanosleep(const struct timespec *duration, struct timespec *remaining) {
    BGSIM_NEXT(nanosleep, nanosleep_fn);
    if (duration != NULL && duration->tv_nsec < 1000000000 && run_mark != NULL) {
        int64_t now = virtual_microseconds();
        if (now >= 0 && plain_sleep_until(now + relative_micros(duration))) {
            if (remaining != NULL) *remaining = (struct timespec){0, 0};
            return 0;
        }
    }
    return next_nanosleep(duration, remaining);
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *time, struct timespec *remaining) {
    BGSIM_NEXT(clock_nanosleep, clock_nanosleep_fn);
    if (time != NULL && time->tv_nsec < 1000000000 && run_mark != NULL && is_time_clock(clock)) {
        int64_t now = virtual_microseconds();
        int64_t until = (flags & TIMER_ABSTIME) != 0 ? virtual_instant(clock, time) : now + relative_micros(time);
        if (now >= 0 && plain_sleep_until(until)) {
            if (remaining != NULL && (flags & TIMER_ABSTIME) == 0) *remaining = (struct timespec){0, 0};
            return 0;
        }
    }
    return next_clock_nanosleep(clock, flags, time, remaining);
}

int usleep(useconds_t microseconds) {
    BGSIM_NEXT(usleep, usleep_fn);
    if (run_mark != NULL) {
        int64_t now = virtual_microseconds();
        if (now >= 0 && microseconds == 0 && zero_sleep(now)) return 0;
        if (now >= 0 && plain_sleep_until(now + (microseconds > 0 ? (int64_t)microseconds : 1))) return 0;
    }
    return next_usleep(microseconds);
}

unsigned int sleep(unsigned int seconds) {
    BGSIM_NEXT(sleep, sleep_fn);
    if (run_mark != NULL) {
        int64_t now = virtual_microseconds();
        if (now >= 0 && seconds == 0 && zero_sleep(now)) return 0;
        if (now >= 0 && plain_sleep_until(now + (seconds > 0 ? (int64_t)seconds * 1000000 : 1))) return 0;
    }
    return next_sleep(seconds);
}

// Condition variables: `NSCondition` (`wait()`, `wait(until:)`, `signal()`, `broadcast()`) and
// what Foundation builds on it (`NSConditionLock`, `Operation.waitUntilFinished`), or a
// `pthread_cond_t` of the app's own. A simulated thread that waits on one with its mutex held (as
// the table knows it) gives the mutex back and waits in the engine for a signal or broadcast from
// a simulated thread of the run, or for its virtual deadline, then takes the mutex again, as
// `pthread_cond_wait` does; the real wait would stop the run (fibers: its one OS thread) or keep
// the baton the signaller needs. Giving the mutex back and starting to wait are one step for the
// other simulated threads (no scheduling point between them), so no signal slips in between. A
// signal wakes one waiter, the scheduler's pick (POSIX names none); a broadcast wakes them all.
// Waiters outside the run are the C library's (the real signal is sent too).
typedef int (*cond_wait_fn)(pthread_cond_t *, pthread_mutex_t *);
typedef int (*cond_timedwait_fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
typedef int (*cond_clockwait_fn)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *);
typedef int (*cond_signal_fn)(pthread_cond_t *);

/// The clock of a condition's timed waits: glibc keeps it in bit 1 of `__wrefs`
/// (`pthread_condattr_setclock(CLOCK_MONOTONIC)`); CLOCK_REALTIME by default, as `NSCondition`'s.
static clockid_t condition_clock(pthread_cond_t *cond) {
    return (__atomic_load_n(&cond->__data.__wrefs, __ATOMIC_RELAXED) & 2) != 0 ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

/// Waits on `cond` in the engine until signalled or the virtual instant `deadline` (microseconds;
/// -1: none), with `mutex` given back meanwhile: 1 with `*result` set (0, or ETIMEDOUT) when it
/// did; 0 when the real call is to be made (not a run's simulated thread, or `mutex` is not one
/// it holds as far as the table knows). A wait the run gives up (its end unwinds the thread)
/// returns as a spurious wake-up.
static int plain_condition_wait(pthread_cond_t *cond, pthread_mutex_t *mutex, int64_t deadline, int *result) {
    if (engine_waits) return 0;
    void *mark;
    bgsim_plain_locks *locks = plain_locks(&mark);
    bgsim_object_wait_fn wait = __atomic_load_n(&plain_object_wait, __ATOMIC_ACQUIRE);
    if (locks == NULL || locks->current == 0 || wait == NULL) return 0;
    bgsim_held_mutex *entry = held_entry(locks, mutex);
    if (entry == NULL || entry->holder != locks->current) return 0;
    pthread_mutex_unlock(mutex);  // this file's: the table forgets it, its waiters may take it
    locks->objectWaiters++;
    int outcome = wait(mark, cond, BGSIM_PLAIN_WAIT_CONDITION, deadline);
    locks->objectWaiters--;
    // Taken again, waiting in the engine if another simulated thread took it meanwhile; at the
    // run's end, held by another unwound thread, it is not taken (EDEADLK), and the caller goes on.
    (void)pthread_mutex_lock(mutex);
    *result = outcome == 1 ? ETIMEDOUT : 0;
    return 1;
}

/// After a signal (`all` 0) or broadcast of `cond`: its simulated waiters are told.
static void plain_condition_signalled(pthread_cond_t *cond, int all) {
    if (engine_waits) return;
    void *mark;
    bgsim_plain_locks *locks = plain_locks(&mark);
    if (locks == NULL || locks->objectWaiters == 0) return;
    if (all) plain_mutex_released(mark, cond);
    else plain_object_signalled_one(mark, cond);
}

int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
    BGSIM_NEXT(pthread_cond_wait, cond_wait_fn);
    int result;
    if (run_mark != NULL && plain_condition_wait(cond, mutex, -1, &result)) return result;
    return next_pthread_cond_wait(cond, mutex);
}

int pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex, const struct timespec *time) {
    BGSIM_NEXT(pthread_cond_timedwait, cond_timedwait_fn);
    int result;
    if (run_mark != NULL && time->tv_nsec >= 0 && time->tv_nsec < 1000000000
        && virtual_microseconds() >= 0
        && plain_condition_wait(cond, mutex, virtual_instant(condition_clock(cond), time), &result)) return result;
    return next_pthread_cond_timedwait(cond, mutex, time);
}

int pthread_cond_clockwait(pthread_cond_t *cond, pthread_mutex_t *mutex, clockid_t clock, const struct timespec *time) {
    BGSIM_NEXT(pthread_cond_clockwait, cond_clockwait_fn);
    int result;
    if (run_mark != NULL && time->tv_nsec >= 0 && time->tv_nsec < 1000000000 && is_time_clock(clock)
        && virtual_microseconds() >= 0
        && plain_condition_wait(cond, mutex, virtual_instant(clock, time), &result)) return result;
    return next_pthread_cond_clockwait(cond, mutex, clock, time);
}

int pthread_cond_signal(pthread_cond_t *cond) {
    BGSIM_NEXT(pthread_cond_signal, cond_signal_fn);
    int status = next_pthread_cond_signal(cond);
    plain_condition_signalled(cond, 0);
    return status;
}

int pthread_cond_broadcast(pthread_cond_t *cond) {
    BGSIM_NEXT(pthread_cond_broadcast, cond_signal_fn);
    int status = next_pthread_cond_broadcast(cond);
    plain_condition_signalled(cond, 1);
    return status;
}

#endif

#else

int bgsim_virtual_clocks_supported(void) { return 0; }


int bgsim_real_clock_gettime(clockid_t clock, struct timespec *time) { return clock_gettime(clock, time); }

#endif

#if !(defined(__linux__) && defined(__GLIBC__))
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

// The engine's installer, if the engine is linked into this binary (a weak reference).
extern void simulation_install_process_executors(void) __attribute__((weak));

// After the C library's and the Swift runtime's own initialisers (they belong to shared
// libraries this binary depends on, which run first), before main and before any thread of the
// program exists.
__attribute__((constructor(102))) static void install_process_executors(void) {
    if (simulation_install_process_executors != NULL) simulation_install_process_executors();
}
