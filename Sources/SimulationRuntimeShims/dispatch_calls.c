// Real Dispatch inside a run (shims_real_dispatch.h). App code sends work with
// `DispatchQueue.main.async`, `DispatchQueue.global().async`, a serial queue of its own,
// `asyncAfter`, `sync` and groups. Made for real, the work would run on a real thread, outside the
// simulation, racing with the run (a callback that resumes a task before or after the task
// suspends takes the run two ways). On a thread with a run mark each such call is handed to the
// engine instead, which runs the work on the run's simulated queue for that Dispatch queue (the
// main queue, the global queue, one serial queue per queue the app made) or reports it; the call
// is then not made.
//
// This file defines those calls (`dispatch_async`, `dispatch_sync`, `dispatch_after`,
// `dispatch_group_async`, `dispatch_group_notify`, their barrier and `_f` forms) and registers the
// engine's observer. What a queue is (its constructors, its target, serial or concurrent) is
// dispatch_queues.c's; a call the run keeps, kept_dispatch_calls.c's; Dispatch sources and timers,
// dispatch_sources.c's; `concurrentPerform`, concurrent_perform.c's; where code runs
// (`Thread.isMainThread`, `getSpecific`, `dispatchPrecondition`), current_queue.c's.
//
// Declared with untyped pointers: this file does not include Dispatch's headers (their block
// types need -fblocks); the ABI is the same.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__linux__)
extern const char *dispatch_queue_get_label(void *queue);
extern void dispatch_group_enter(void *group);
extern void dispatch_group_leave(void *group);
// The blocks runtime (Dispatch links it).
extern void *_Block_copy(const void *block);

bgsim_real_dispatch_fn bgsim_real_dispatch_observer;

void bgsim_real_dispatch_register(bgsim_real_dispatch_fn observer) {
    __atomic_store_n(&bgsim_real_dispatch_observer, observer, __ATOMIC_RELEASE);
}

// MARK: Calls

/// Hands `call` to the engine when the calling thread is in a run: 1 when the run took it.
int bgsim_dispatch_hand_over(void *queue, const char *function, int32_t operation, int32_t barrier,
                             bgsim_dispatch_call *call) {
    void *mark = bgsim_run_mark_get();
    if (mark == NULL || queue == NULL) return 0;
    bgsim_real_dispatch_fn observer = __atomic_load_n(&bgsim_real_dispatch_observer, __ATOMIC_ACQUIRE);
    if (observer == NULL) return 0;
    const char *label = dispatch_queue_get_label(queue);
    call->label = label != NULL ? label : "";
    call->function = function;
    call->operation = operation;
    call->barrier = barrier;
    call->origin = queue;
    call->queue = bgsim_resolve_queue(queue, &call->queueKind);
    if (!observer(mark, call)) return 0;
    // Reported rather than run, and not kept by the run: the block is kept, never run and
    // never released. Released, its captures would be
    // destroyed, and a captured checked continuation would print Swift's "leaked its
    // continuation" misuse warning on every such run; kept, it leaks a few hundred bytes per
    // reported call, like a task that never resumes.
    if (!call->kept && call->block != NULL && operation != BGSIM_DISPATCH_SYNC) (void)_Block_copy(call->block);
    return 1;
}

static int hand_over_block(void *queue, void *block, const char *function, int32_t operation,
                           int32_t barrier, void *group, uint64_t when) {
    if (bgsim_run_mark_get() == NULL) return 0;  // the common case, one thread-local load
    bgsim_dispatch_call call = {0};
    call.block = block;
    call.group = group;
    call.deadline = operation == BGSIM_DISPATCH_AFTER ? bgsim_virtual_deadline(when) : 0;
    return bgsim_dispatch_hand_over(queue, function, operation, barrier, &call);
}

static int hand_over_function(void *queue, void *context, void (*work)(void *), const char *function,
                              int32_t operation, int32_t barrier, void *group, uint64_t when) {
    if (bgsim_run_mark_get() == NULL) return 0;
    bgsim_dispatch_call call = {0};
    call.context = context;
    call.work = work;
    call.group = group;
    call.deadline = operation == BGSIM_DISPATCH_AFTER ? bgsim_virtual_deadline(when) : 0;
    return bgsim_dispatch_hand_over(queue, function, operation, barrier, &call);
}

int bgsim_real_dispatch_hand_over_main(const char *function, int32_t operation, bgsim_dispatch_call *call) {
    return bgsim_dispatch_hand_over(bgsim_main_queue(), function, operation, 0, call);
}

void bgsim_real_dispatch_group_left(void *group) {
    void *mark = bgsim_run_mark_get();
    if (mark == NULL || group == NULL) return;
    bgsim_real_dispatch_fn observer = __atomic_load_n(&bgsim_real_dispatch_observer, __ATOMIC_ACQUIRE);
    if (observer == NULL) return;
    bgsim_dispatch_call call = {0};
    call.label = "";
    call.function = "dispatch_group_leave";
    call.operation = BGSIM_DISPATCH_GROUP_LEFT;
    call.group = group;
    (void)observer(mark, &call);
}

typedef intptr_t (*group_wait_fn)(void *, uint64_t);

int bgsim_dispatch_group_is_empty(void *group) {
    BGSIM_NEXT(dispatch_group_wait, group_wait_fn);
    return next_dispatch_group_wait(group, 0) == 0;
}

typedef void (*async_block_fn)(void *, void *);
typedef void (*async_function_fn)(void *, void *, void (*)(void *));
typedef void (*after_block_fn)(uint64_t, void *, void *);
typedef void (*after_function_fn)(uint64_t, void *, void *, void (*)(void *));
typedef void (*group_block_fn)(void *, void *, void *);
typedef void (*group_function_fn)(void *, void *, void *, void (*)(void *));

void dispatch_async(void *queue, void *block) {
    BGSIM_NEXT(dispatch_async, async_block_fn);
    if (hand_over_block(queue, block, "dispatch_async", BGSIM_DISPATCH_ASYNC, 0, NULL, 0)) return;
    next_dispatch_async(queue, block);
}

void dispatch_async_f(void *queue, void *context, void (*work)(void *)) {
    BGSIM_NEXT(dispatch_async_f, async_function_fn);
    if (hand_over_function(queue, context, work, "dispatch_async_f", BGSIM_DISPATCH_ASYNC, 0, NULL, 0)) return;
    next_dispatch_async_f(queue, context, work);
}

void dispatch_barrier_async(void *queue, void *block) {
    BGSIM_NEXT(dispatch_barrier_async, async_block_fn);
    if (hand_over_block(queue, block, "dispatch_barrier_async", BGSIM_DISPATCH_ASYNC, 1, NULL, 0)) return;
    next_dispatch_barrier_async(queue, block);
}

void dispatch_barrier_async_f(void *queue, void *context, void (*work)(void *)) {
    BGSIM_NEXT(dispatch_barrier_async_f, async_function_fn);
    if (hand_over_function(queue, context, work, "dispatch_barrier_async_f", BGSIM_DISPATCH_ASYNC, 1, NULL, 0)) return;
    next_dispatch_barrier_async_f(queue, context, work);
}

void dispatch_after(uint64_t when, void *queue, void *block) {
    BGSIM_NEXT(dispatch_after, after_block_fn);
    if (hand_over_block(queue, block, "dispatch_after", BGSIM_DISPATCH_AFTER, 0, NULL, when)) return;
    next_dispatch_after(when, queue, block);
}

void dispatch_after_f(uint64_t when, void *queue, void *context, void (*work)(void *)) {
    BGSIM_NEXT(dispatch_after_f, after_function_fn);
    if (hand_over_function(queue, context, work, "dispatch_after_f", BGSIM_DISPATCH_AFTER, 0, NULL, when)) return;
    next_dispatch_after_f(when, queue, context, work);
}

void dispatch_sync(void *queue, void *block) {
    BGSIM_NEXT(dispatch_sync, async_block_fn);
    if (hand_over_block(queue, block, "dispatch_sync", BGSIM_DISPATCH_SYNC, 0, NULL, 0)) return;
    next_dispatch_sync(queue, block);
}

void dispatch_sync_f(void *queue, void *context, void (*work)(void *)) {
    BGSIM_NEXT(dispatch_sync_f, async_function_fn);
    if (hand_over_function(queue, context, work, "dispatch_sync_f", BGSIM_DISPATCH_SYNC, 0, NULL, 0)) return;
    next_dispatch_sync_f(queue, context, work);
}

void dispatch_barrier_sync(void *queue, void *block) {
    BGSIM_NEXT(dispatch_barrier_sync, async_block_fn);
    if (hand_over_block(queue, block, "dispatch_barrier_sync", BGSIM_DISPATCH_SYNC, 1, NULL, 0)) return;
    next_dispatch_barrier_sync(queue, block);
}

void dispatch_barrier_sync_f(void *queue, void *context, void (*work)(void *)) {
    BGSIM_NEXT(dispatch_barrier_sync_f, async_function_fn);
    if (hand_over_function(queue, context, work, "dispatch_barrier_sync_f", BGSIM_DISPATCH_SYNC, 1, NULL, 0)) return;
    next_dispatch_barrier_sync_f(queue, context, work);
}

void dispatch_group_async(void *group, void *queue, void *block) {
    BGSIM_NEXT(dispatch_group_async, group_block_fn);
    if (bgsim_run_mark_get() != NULL && group != NULL) {
        // Entered now, as Dispatch does: a wait on the group from here on waits for this work.
        dispatch_group_enter(group);
        if (hand_over_block(queue, block, "dispatch_group_async", BGSIM_DISPATCH_ASYNC, 0, group, 0)) return;
        dispatch_group_leave(group);
    }
    next_dispatch_group_async(group, queue, block);
}

void dispatch_group_async_f(void *group, void *queue, void *context, void (*work)(void *)) {
    BGSIM_NEXT(dispatch_group_async_f, group_function_fn);
    if (bgsim_run_mark_get() != NULL && group != NULL) {
        dispatch_group_enter(group);
        if (hand_over_function(queue, context, work, "dispatch_group_async_f", BGSIM_DISPATCH_ASYNC, 0, group, 0)) return;
        dispatch_group_leave(group);
    }
    next_dispatch_group_async_f(group, queue, context, work);
}

void dispatch_group_notify(void *group, void *queue, void *block) {
    BGSIM_NEXT(dispatch_group_notify, group_block_fn);
    if (hand_over_block(queue, block, "dispatch_group_notify", BGSIM_DISPATCH_NOTIFY, 0, group, 0)) return;
    next_dispatch_group_notify(group, queue, block);
}

void dispatch_group_notify_f(void *group, void *queue, void *context, void (*work)(void *)) {
    BGSIM_NEXT(dispatch_group_notify_f, group_function_fn);
    if (hand_over_function(queue, context, work, "dispatch_group_notify_f", BGSIM_DISPATCH_NOTIFY, 0, group, 0)) return;
    next_dispatch_group_notify_f(group, queue, context, work);
}

#else

void bgsim_real_dispatch_register(bgsim_real_dispatch_fn observer) { (void)observer; }

void bgsim_real_dispatch_group_left(void *group) { (void)group; }

int bgsim_dispatch_group_is_empty(void *group) {
    (void)group;
    return 1;
}

#endif
