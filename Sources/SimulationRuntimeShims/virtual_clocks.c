// Virtual clocks (see shims_clocks.h): the process's clocks on a run's virtual time (Linux). This
// file defines `clock_gettime`, `gettimeofday` and `time`: on a thread with a run mark they answer
// the run's virtual time (through the callback the engine registers); everywhere else, and for
// the CPU-time clocks, they call the C library's own functions. Also the conversions the other
// shims share (shims_internal.h): a dispatch timeout, a wall-clock instant and an absolute time on
// a clock as a virtual instant of the calling thread's run. Monotonic clocks read the simulated
// device's uptime at the run's start plus the run's virtual time; wall clocks, the registered
// epoch plus the run's virtual time.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <sys/time.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// Written once per process before the first run (registration happens before any thread is
// marked), read by marked threads: plain atomics keep the read well defined.
static bgsim_virtual_now_fn virtual_now;
static int64_t epoch_seconds;

void bgsim_virtual_clocks_register(bgsim_virtual_now_fn now, int64_t epoch) {
    __atomic_store_n(&epoch_seconds, epoch, __ATOMIC_RELEASE);
    __atomic_store_n(&virtual_now, now, __ATOMIC_RELEASE);
}

/// The virtual time of the calling thread's run, in microseconds, or -1 when the thread is not
/// in a run (or nothing is registered).
int64_t bgsim_virtual_microseconds(void) {
    void *mark = bgsim_run_mark_tls;
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
int bgsim_is_time_clock(clockid_t clock) {
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
    int64_t micros = bgsim_is_time_clock(clock) ? bgsim_virtual_microseconds() : -1;
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

/// An absolute time on `clock` as a virtual instant in microseconds (rounded up: never early).
int64_t bgsim_virtual_instant(clockid_t clock, const struct timespec *time) {
    int64_t micros = (int64_t)time->tv_sec * 1000000 + (time->tv_nsec + 999) / 1000;
    int64_t base = clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE
        ? __atomic_load_n(&epoch_seconds, __ATOMIC_ACQUIRE) * 1000000
        : (int64_t)BGSIM_VIRTUAL_UPTIME_AT_START_SECONDS * 1000000;
    micros -= base;
    return micros < 0 ? 0 : micros;
}

#else

int bgsim_virtual_clocks_supported(void) { return 0; }

int bgsim_real_clock_gettime(clockid_t clock, struct timespec *time) { return clock_gettime(clock, time); }

#endif
