// `DispatchQueue.concurrentPerform` inside a run (`dispatch_apply`, `dispatch_apply_f`): on a
// run's thread the iterations run one after another on the calling thread, and the plain-access
// checks are told where each starts (plain_accesses.c, `bgsim_plain_iterations`), as below says;
// elsewhere, or before the engine registers its observer of real Dispatch (dispatch_calls.c),
// Dispatch's own runs them.
//
// Declared with untyped pointers: this file does not include Dispatch's headers (their block
// types need -fblocks); the ABI is the same.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>

#if defined(__linux__)

// MARK: concurrentPerform

typedef void (*apply_fn)(size_t, void *, void *);
typedef void (*apply_function_fn)(size_t, void *, void *, void (*)(void *, size_t));

/// An index block (`dispatch_apply`'s): the blocks ABI with an index argument.
struct index_block_layout {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(void *block, size_t index);
};

// `DispatchQueue.concurrentPerform` inside a run: Dispatch would run the iterations on real
// worker threads beside the caller. On a run's thread they run one after another on the
// calling thread, in order, which is one of the schedules Dispatch may choose (it returns when
// all have run either way): app code inside them stays on the run's simulated thread. The
// race detector is told where each iteration starts: on a device they run on several workers
// at once (`DISPATCH_APPLY_AUTO`, a global or concurrent queue; a serial one runs them in turn),
// so an iteration comes after another only through what they synchronize with (a counter every
// iteration bumps unguarded is a race).
static void apply_in_run(size_t iterations, void *queue, void *block, void *context, void (*work)(void *, size_t)) {
    int concurrent = queue == NULL || bgsim_is_global_queue(queue) || bgsim_is_concurrent_queue(queue);
    if (concurrent) bgsim_plain_iterations(BGSIM_SYNC_ITERATIONS_BEGIN, iterations);
    for (size_t index = 0; index < iterations; index++) {
        if (concurrent) bgsim_plain_iterations(BGSIM_SYNC_ITERATION, index);
        if (block != NULL) ((struct index_block_layout *)block)->invoke(block, index);
        else work(context, index);
    }
    if (concurrent) bgsim_plain_iterations(BGSIM_SYNC_ITERATIONS_END, iterations);
}

void dispatch_apply(size_t iterations, void *queue, void *block) {
    BGSIM_NEXT(dispatch_apply, apply_fn);
    if (bgsim_run_mark_get() == NULL || __atomic_load_n(&bgsim_real_dispatch_observer, __ATOMIC_ACQUIRE) == NULL) {
        next_dispatch_apply(iterations, queue, block);
        return;
    }
    apply_in_run(iterations, queue, block, NULL, NULL);
}

void dispatch_apply_f(size_t iterations, void *queue, void *context, void (*work)(void *, size_t)) {
    BGSIM_NEXT(dispatch_apply_f, apply_function_fn);
    if (bgsim_run_mark_get() == NULL || __atomic_load_n(&bgsim_real_dispatch_observer, __ATOMIC_ACQUIRE) == NULL) {
        next_dispatch_apply_f(iterations, queue, context, work);
        return;
    }
    apply_in_run(iterations, queue, NULL, context, work);
}

#endif
