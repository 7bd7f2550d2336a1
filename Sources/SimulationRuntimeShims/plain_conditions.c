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
//
// This file defines `pthread_cond_wait`, `_timedwait`, `_clockwait`, `_signal` and `_broadcast`.
// The mutex is given back and taken again through plain_mutexes.c's `pthread_mutex_unlock` and
// `pthread_mutex_lock`, so the table of held mutexes stays true. Linux with glibc.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <pthread.h>

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
    if (bgsim_engine_waits_tls) return 0;
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    bgsim_object_wait_fn wait = __atomic_load_n(&bgsim_plain_object_wait, __ATOMIC_ACQUIRE);
    if (locks == NULL || locks->current == 0 || wait == NULL) return 0;
    bgsim_held_mutex *entry = bgsim_held_entry(locks, mutex);
    if (entry == NULL || entry->holder != locks->current) return 0;
    pthread_mutex_unlock(mutex);  // plain_mutexes.c's: the table forgets it, its waiters may take it
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
    if (bgsim_engine_waits_tls) return;
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    if (locks == NULL || locks->objectWaiters == 0) return;
    if (all) bgsim_plain_mutex_released(mark, cond);
    else bgsim_plain_object_signalled_one(mark, cond);
}

int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
    BGSIM_NEXT(pthread_cond_wait, cond_wait_fn);
    int result;
    if (bgsim_run_mark_tls != NULL && plain_condition_wait(cond, mutex, -1, &result)) return result;
    return next_pthread_cond_wait(cond, mutex);
}

int pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex, const struct timespec *time) {
    BGSIM_NEXT(pthread_cond_timedwait, cond_timedwait_fn);
    int result;
    if (bgsim_run_mark_tls != NULL && time->tv_nsec >= 0 && time->tv_nsec < 1000000000
        && bgsim_virtual_microseconds() >= 0
        && plain_condition_wait(cond, mutex, bgsim_virtual_instant(condition_clock(cond), time), &result)) return result;
    return next_pthread_cond_timedwait(cond, mutex, time);
}

int pthread_cond_clockwait(pthread_cond_t *cond, pthread_mutex_t *mutex, clockid_t clock, const struct timespec *time) {
    BGSIM_NEXT(pthread_cond_clockwait, cond_clockwait_fn);
    int result;
    if (bgsim_run_mark_tls != NULL && time->tv_nsec >= 0 && time->tv_nsec < 1000000000 && bgsim_is_time_clock(clock)
        && bgsim_virtual_microseconds() >= 0
        && plain_condition_wait(cond, mutex, bgsim_virtual_instant(clock, time), &result)) return result;
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
