// Sleeps: `Thread.sleep(forTimeInterval:)` (a `nanosleep`), `usleep`, `sleep` on a run's
// simulated thread. The real sleep would stop the whole run (fibers) for real time while its
// virtual clock stood still. Instead the sleeping simulated thread alone waits, for that long on
// the virtual clock (a plain wait with only a deadline: nothing signals it).
//
// This file defines `nanosleep`, `clock_nanosleep`, `usleep` and `sleep` (Linux with glibc), and
// registers the engine's side of loop-level sleeps (``bgsim_loop_sleep_fn``, shims_clocks.h),
// where no simulated thread can wait. A sleep ends no earlier than its time on the virtual clock;
// one of no length is a real yield or a microsecond of virtual time (`zero_sleep` says which).
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <stdint.h>

static bgsim_loop_sleep_fn loop_slept;

void bgsim_loop_sleep_register(bgsim_loop_sleep_fn slept) {
    __atomic_store_n(&loop_slept, slept, __ATOMIC_RELEASE);
}

#if defined(__linux__) && defined(__GLIBC__)
#include <sched.h>
#include <time.h>
#include <unistd.h>

/// The address every sleep waits on (nothing signals it).
static char sleeping;

/// Sleeps the calling simulated thread until the virtual instant `until` (microseconds): 1 when
/// it did, or when the caller is app code on a run's thread with no simulated thread to wait
/// (the loop level: the sleep moves the run's clocks there, ``bgsim_loop_sleep_fn``); 0 when
/// the caller is not in a run (the real call is to be made).
static int plain_sleep_until(int64_t until) {
    if (bgsim_engine_waits_tls) return 0;
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    bgsim_object_wait_fn wait = __atomic_load_n(&bgsim_plain_object_wait, __ATOMIC_ACQUIRE);
    int64_t now = bgsim_virtual_microseconds();
    if (now < 0) return 0;
    if (locks == NULL || locks->current == 0 || wait == NULL) {
        bgsim_loop_sleep_fn slept = __atomic_load_n(&loop_slept, __ATOMIC_ACQUIRE);
        if (bgsim_run_mark_tls == NULL || slept == NULL) return 0;
        if (until > now) slept(bgsim_run_mark_tls, until - now);
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
    if (duration != NULL && duration->tv_nsec < 1000000000 && bgsim_run_mark_tls != NULL) {
        int64_t now = bgsim_virtual_microseconds();
        if (now >= 0 && plain_sleep_until(now + relative_micros(duration))) {
            if (remaining != NULL) *remaining = (struct timespec){0, 0};
            return 0;
        }
    }
    return next_nanosleep(duration, remaining);
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *time, struct timespec *remaining) {
    BGSIM_NEXT(clock_nanosleep, clock_nanosleep_fn);
    if (time != NULL && time->tv_nsec < 1000000000 && bgsim_run_mark_tls != NULL && bgsim_is_time_clock(clock)) {
        int64_t now = bgsim_virtual_microseconds();
        int64_t until = (flags & TIMER_ABSTIME) != 0 ? bgsim_virtual_instant(clock, time) : now + relative_micros(time);
        if (now >= 0 && plain_sleep_until(until)) {
            if (remaining != NULL && (flags & TIMER_ABSTIME) == 0) *remaining = (struct timespec){0, 0};
            return 0;
        }
    }
    return next_clock_nanosleep(clock, flags, time, remaining);
}

int usleep(useconds_t microseconds) {
    BGSIM_NEXT(usleep, usleep_fn);
    if (bgsim_run_mark_tls != NULL) {
        int64_t now = bgsim_virtual_microseconds();
        if (now >= 0 && microseconds == 0 && zero_sleep(now)) return 0;
        if (now >= 0 && plain_sleep_until(now + (microseconds > 0 ? (int64_t)microseconds : 1))) return 0;
    }
    return next_usleep(microseconds);
}

unsigned int sleep(unsigned int seconds) {
    BGSIM_NEXT(sleep, sleep_fn);
    if (bgsim_run_mark_tls != NULL) {
        int64_t now = bgsim_virtual_microseconds();
        if (now >= 0 && seconds == 0 && zero_sleep(now)) return 0;
        if (now >= 0 && plain_sleep_until(now + (seconds > 0 ? (int64_t)seconds * 1000000 : 1))) return 0;
    }
    return next_sleep(seconds);
}

#endif
