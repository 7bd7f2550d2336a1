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
//
// This file defines `syscall` for that, and keeps the carriers: the OS threads that carried a
// run's jobs, noted in its plain-locks table when a thread's run mark is set (run_marks.c), so an
// owner's thread id tells a simulated holder from a thread outside the run. The operations follow
// the kernel's PI-futex protocol (futex(2): the owner's id in the word, `FUTEX_WAITERS` once
// someone waits). Linux with glibc.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The calling OS thread's kernel id, asked once (a mark is set for every loop of a run).
static BGSIM_TLS int32_t carrier_tid;
/// The serial of the last table this thread noted itself in.
static BGSIM_TLS uint64_t noted_serial;
static uint64_t next_table_serial;

/// Records the calling OS thread as a carrier of the run whose table `locks` is: only the thread
/// holding the run's baton sets a mark with a table, so this is the one writer. One comparison
/// when this thread noted itself there last.
void bgsim_note_carrier(void *locks) {
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
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
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
        if (*result == 0) bgsim_plain_mutex_released(mark, word);
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
        if (bgsim_plain_mutex_wait(mark, word) != 0) {
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

#endif
