// Where the calling code runs, as a run answers it (see shims_real_dispatch.h,
// `BGSIM_DISPATCH_IS_MAIN_THREAD`, `BGSIM_DISPATCH_CURRENT_QUEUE`, `BGSIM_DISPATCH_ASSERT_ON`):
// Foundation's `Thread.isMainThread` (`_CFIsMainThread`), `DispatchQueue.getSpecific`
// (`dispatch_get_specific`) and `dispatchPrecondition` (`dispatch_assert_queue`, its barrier form,
// `dispatch_assert_queue_not`). Foundation and Dispatch answer from the real thread and the queue
// it drains, which never run a run's work; on a run's thread the engine answers from its
// simulated threads and queues, and a violated precondition stops the process as Dispatch does.
//
// Declared with untyped pointers: this file does not include Dispatch's headers (their block
// types need -fblocks); the ABI is the same.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdint.h>

#if defined(__linux__)
extern void *dispatch_queue_get_specific(void *queue, const void *key);

// MARK: Thread.isMainThread

typedef unsigned char (*is_main_thread_fn)(void);

// Foundation's `Thread.isMainThread` asks whether the OS thread is the process's first one; a
// run's simulated main thread is carried by another (a campaign's worker). On a run's thread the
// engine answers whether the simulated main thread is running.
unsigned char _CFIsMainThread(void) {
    BGSIM_NEXT(_CFIsMainThread, is_main_thread_fn);
    void *mark = bgsim_run_mark_get();
    bgsim_real_dispatch_fn observer = __atomic_load_n(&bgsim_real_dispatch_observer, __ATOMIC_ACQUIRE);
    if (mark != NULL && observer != NULL) {
        bgsim_dispatch_call call = {0};
        call.label = "";
        call.function = "Thread.isMainThread";
        call.operation = BGSIM_DISPATCH_IS_MAIN_THREAD;
        if (observer(mark, &call)) return (unsigned char)(call.result != 0);
    }
    return next__CFIsMainThread();
}

// MARK: DispatchQueue.getSpecific

typedef void *(*get_specific_fn)(const void *);

// `DispatchQueue.getSpecific(key:)` (the "am I on my queue already?" idiom of database
// wrappers): Dispatch reads the key from the queue the calling thread is draining, which never
// runs a run's work, so inside a run it was always nil, and code that syncs onto its queue
// unless already on it synced onto it from inside it (a false deadlock). On a run's thread the
// engine names the queue whose block runs there; the key is read from it and from the queues it
// targets, as Dispatch reads it.
void *dispatch_get_specific(const void *key) {
    BGSIM_NEXT(dispatch_get_specific, get_specific_fn);
    void *mark = bgsim_run_mark_get();
    bgsim_real_dispatch_fn observer = __atomic_load_n(&bgsim_real_dispatch_observer, __ATOMIC_ACQUIRE);
    if (mark == NULL || observer == NULL || key == NULL) return next_dispatch_get_specific(key);
    bgsim_dispatch_call call = {0};
    call.label = "";
    call.function = "dispatch_get_specific";
    call.operation = BGSIM_DISPATCH_CURRENT_QUEUE;
    if (!observer(mark, &call)) return next_dispatch_get_specific(key);
    void *queue = call.result == -1 ? bgsim_main_queue() : (void *)(uintptr_t)call.result;
    for (int depth = 0; queue != NULL && depth < 16; depth++) {
        void *value = dispatch_queue_get_specific(queue, key);
        if (value != NULL) return value;
        void *target = dispatch_queue_get_specific(queue, &bgsim_dispatch_target_key);
        queue = target != queue ? target : NULL;
    }
    return NULL;
}

// MARK: Assertions

typedef void (*assert_fn)(void *);

/// `dispatchPrecondition` inside a run: Dispatch would check the real queue, which never runs a
/// run's work. Asked of the engine instead; a violated condition stops the process as Dispatch
/// does (a trap, after its message).
static int hand_over_assertion(void *queue, const char *function, int32_t operation) {
    if (bgsim_run_mark_get() == NULL || queue == NULL) return 0;
    bgsim_dispatch_call call = {0};
    if (!bgsim_dispatch_hand_over(queue, function, operation, 0, &call)) return 0;
    if (call.violated) {
        bgsim_dispatch_client_crash(operation == BGSIM_DISPATCH_ASSERT_ON ? "Assertion failed: Block was expected to execute on queue"
                                                           : "Assertion failed: Block was not expected to execute on queue",
                     call.label);
    }
    return 1;
}

void dispatch_assert_queue(void *queue) {
    BGSIM_NEXT(dispatch_assert_queue, assert_fn);
    if (hand_over_assertion(queue, "dispatch_assert_queue", BGSIM_DISPATCH_ASSERT_ON)) return;
    next_dispatch_assert_queue(queue);
}

void dispatch_assert_queue_barrier(void *queue) {
    BGSIM_NEXT(dispatch_assert_queue_barrier, assert_fn);
    if (hand_over_assertion(queue, "dispatch_assert_queue_barrier", BGSIM_DISPATCH_ASSERT_ON)) return;
    next_dispatch_assert_queue_barrier(queue);
}

void dispatch_assert_queue_not(void *queue) {
    BGSIM_NEXT(dispatch_assert_queue_not, assert_fn);
    if (hand_over_assertion(queue, "dispatch_assert_queue_not", BGSIM_DISPATCH_ASSERT_NOT_ON)) return;
    next_dispatch_assert_queue_not(queue);
}

#endif
