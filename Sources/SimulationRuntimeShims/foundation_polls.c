// Foundation's polling loops as waits (shims_plain_locks.h, `bgsim_foundation_polls_register`).
// Linux Foundation's `OperationQueue.waitUntilAllOperationsAreFinished()` waits on each operation
// (an `NSCondition` wait, which the engine sees), then reads the queue's operations again under
// the queue's lock, until none is left. An operation is finished, and its waiters woken, a little
// before its queue takes it off the list: between the two, an operation with a completion block
// sends that block to a global queue, a host call where the finishing thread may be preempted.
// The waiter then finds the finished operation still listed, its wait returns at once, and it
// reads the list again, and again: a loop whose only calls are Foundation's own locks, no
// scheduling point, so the thread that would take the operation off never runs, and correct app
// code hangs (`no-hang`). On a device that thread runs on another core and the loop ends at once
// (on Darwin, whose Foundation does not poll, the call simply waits).
//
// So a lock taken by such a loop's own code, on a simulated thread, calls the engine's poll
// point: when nothing happened in the run since the thread's last poll (no job, no wake-up), the
// thread sleeps a little virtual time, which lets every other thread run, whatever the strategy;
// otherwise it goes on at once. The loops are found by symbol once per process, at registration
// (the lock's return address is in the loop's function: `NSLock.lock` tail-calls the mutex). Only
// Foundation's polling code, so a schedule never depends on a lock taken on first use. Linux with
// glibc, 64-bit.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__) && defined(__LP64__)
/// The polling functions, by mangled name (swift-corelibs-foundation).
static const char *const polling_functions[] = {
    "$s10Foundation14OperationQueueC33waitUntilAllOperationsAreFinishedyyF",
};
#define POLLING_FUNCTIONS (sizeof polling_functions / sizeof polling_functions[0])

/// Their code spans, found at registration ([start, end); empty when a symbol is not found).
static uintptr_t poll_start[POLLING_FUNCTIONS], poll_end[POLLING_FUNCTIONS];
static bgsim_app_lock_point_fn poll_point;

void bgsim_foundation_polls_register(bgsim_app_lock_point_fn point) {
    for (size_t index = 0; index < POLLING_FUNCTIONS; index++) {
        bgsim_symbol_span(polling_functions[index], &poll_start[index], &poll_end[index]);
    }
    __atomic_store_n(&poll_point, point, __ATOMIC_RELEASE);
}

int bgsim_foundation_poll(void *mark, const void *caller) {
    uintptr_t pc = (uintptr_t)caller;
    for (size_t index = 0; index < POLLING_FUNCTIONS; index++) {
        if (pc >= poll_start[index] && pc < poll_end[index]) {
            bgsim_app_lock_point_fn point = __atomic_load_n(&poll_point, __ATOMIC_ACQUIRE);
            if (point == NULL) return 0;
            point(mark);
            return 1;
        }
    }
    return 0;
}

#else

void bgsim_foundation_polls_register(bgsim_app_lock_point_fn point) { (void)point; }

int bgsim_foundation_poll(void *mark, const void *caller) {
    (void)mark;
    (void)caller;
    return 0;
}

#endif
