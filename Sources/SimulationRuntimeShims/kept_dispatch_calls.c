// Kept calls (see shims_real_dispatch.h, `bgsim_dispatch_call_keep`): a call to a real Dispatch
// queue that a run took (dispatch_calls.c, dispatch_sources.c, run_loop_timers.c) and runs later
// is copied by the engine to outlive the call that made it. The copy holds its block (`Block_copy`) and the
// queue called (Dispatch's internal reference, as Dispatch's own queued work does); it is freed
// after its work ran, or abandoned when it never runs, its captures then never destroyed (a
// killed process's never are). Running one calls its block or function on the calling thread,
// then leaves its group, as `dispatch_group_async` does.
//
// Declared with untyped pointers: this file does not include Dispatch's headers (their block
// types need -fblocks); the ABI is the same.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <stdlib.h>

#if defined(__linux__)
extern void dispatch_group_leave(void *group);
// Dispatch's internal references (libdispatch exports them; queued work holds its queue so).
extern void *_os_object_retain_internal(void *object);
extern void _os_object_release_internal(void *object);
// The blocks runtime (Dispatch links it).
extern void *_Block_copy(const void *block);
extern void _Block_release(const void *block);

/// The start of every block (the blocks ABI): what calling one needs.
struct block_layout {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(void *block);
};

bgsim_dispatch_call *bgsim_dispatch_call_keep(const bgsim_dispatch_call *call) {
    bgsim_dispatch_call *kept = malloc(sizeof *kept);
    if (kept == NULL) abort();
    *kept = *call;
    kept->label = "";
    kept->function = "";
    if (call->block != NULL) kept->block = _Block_copy(call->block);
    // Dispatch's queued work holds its queue (an internal reference: the app may have let go
    // of the queue, as a timer's queue often is); kept work does too, since
    // `DispatchQueue.getSpecific` reads the queue while the work runs. Global objects (the main
    // and root queues) ignore it.
    if (kept->origin != NULL) (void)_os_object_retain_internal(kept->origin);
    ((bgsim_dispatch_call *)call)->kept = 1;
    return kept;
}

void bgsim_dispatch_call_run(const bgsim_dispatch_call *call) {
    if (call->block != NULL) {
        struct block_layout *block = call->block;
        block->invoke(block);
    } else if (call->work != NULL) {
        call->work(call->context);
    }
    if (call->operation == BGSIM_DISPATCH_ASYNC && call->group != NULL) dispatch_group_leave(call->group);
}

void bgsim_dispatch_call_free(bgsim_dispatch_call *call) {
    if (call->block != NULL) _Block_release(call->block);
    if (call->dispose != NULL) call->dispose(call->context);
    if (call->origin != NULL) _os_object_release_internal(call->origin);
    free(call);
}

void bgsim_dispatch_call_abandon(bgsim_dispatch_call *call) {
    if (call->origin != NULL) _os_object_release_internal(call->origin);
    free(call);
}

#else

bgsim_dispatch_call *bgsim_dispatch_call_keep(const bgsim_dispatch_call *call) {
    bgsim_dispatch_call *kept = malloc(sizeof *kept);
    if (kept == NULL) abort();
    *kept = *call;
    return kept;
}

void bgsim_dispatch_call_run(const bgsim_dispatch_call *call) { (void)call; }

void bgsim_dispatch_call_free(bgsim_dispatch_call *call) {
    if (call->dispose != NULL) call->dispose(call->context);
    free(call);
}

void bgsim_dispatch_call_abandon(bgsim_dispatch_call *call) { free(call); }

#endif
