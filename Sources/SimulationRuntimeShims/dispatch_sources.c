// Dispatch sources made inside a run (see shims_real_dispatch.h, `BGSIM_DISPATCH_SOURCE` and the
// timer operations): this file defines `dispatch_source_create`, the timer calls
// (`dispatch_source_set_timer`, its event and cancel handlers, `dispatch_source_cancel`,
// `_testcancel`, `_get_data`), and `dispatch_resume`, `dispatch_activate`, `dispatch_suspend` and
// `dispatch_release`, which a run's source hands to the engine. A run's timer is simulated on the
// run's virtual clock; any other source started inside a run is handed over as an escape.
// Dispatch's own contract is kept: an over-resume, or the last release of a suspended or inactive
// timer, stops the process as Dispatch does. A run's sources are forgotten, and its timers freed,
// when the run ends.
//
// Declared with untyped pointers: this file does not include Dispatch's headers (their block
// types need -fblocks); the ABI is the same.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__linux__)
extern const char *dispatch_queue_get_label(void *queue);
extern void dispatch_retain(void *object);
void dispatch_release(void *object);  // defined below: a run timer's last release is told
extern void *dispatch_get_global_queue(long identifier, unsigned long flags);

// MARK: Reference counts

/// Whether a Dispatch object's header is as `external_references` reads it: Dispatch's objects
/// start with a pointer and two `int` counts, the internal and the external (each stored as
/// the count less one). Checked once at load on an object of its own; if the check fails,
/// releases are not told.
static int header_is_known;

__attribute__((constructor)) static void check_object_header(void) {
    extern void *dispatch_semaphore_create(long value);
    void *object = dispatch_semaphore_create(0);
    if (object == NULL) return;
    volatile int *external = (volatile int *)((char *)object + sizeof(void *) + sizeof(int));
    int alone = *external;
    dispatch_retain(object);
    int retained = *external;
    dispatch_release(object);
    header_is_known = alone == 0 && retained == 1 && *external == 0;
    dispatch_release(object);
}

/// The external references to the Dispatch object at `object` (the app's, and the one the
/// shim keeps of a run's source).
static int external_references(void *object) {
    return *(volatile int *)((char *)object + sizeof(void *) + sizeof(int)) + 1;
}

// MARK: Sources

// A source made on a thread with a run mark is remembered until its run ends (a table shared by
// every thread: a source may be used from another simulated thread, which with OS-thread carriers
// is another OS thread, and by the runs of other jobs; it grows as needed, and the engine forgets
// a run's entries when the run ends, `bgsim_real_dispatch_run_ended`). Dispatch never starts it:
// it stays inactive and is kept (released inactive, Dispatch would stop the process). A timer is
// simulated: its calls on a run's thread (`set_timer`, the handlers, `resume`, `suspend`,
// `cancel`, the app's last release) go to the engine, which fires the handler on the simulated
// queue at the virtual deadlines. Starting any other source is handed over as such (its handler
// would run on a real thread).
typedef struct run_source {
    void *source;
    void *queue;
    /// The run that made it (its mark).
    void *mark;
    int is_timer;
} run_source;
static run_source *run_sources;
static uint32_t run_source_count, run_source_capacity;
static char run_sources_lock;

typedef void *(*source_create_fn)(void *, uintptr_t, uintptr_t, void *);
typedef void (*object_fn)(void *);

void *dispatch_source_create(void *type, uintptr_t handle, uintptr_t mask, void *queue) {
    BGSIM_NEXT(dispatch_source_create, source_create_fn);
    void *source = next_dispatch_source_create(type, handle, mask, queue);
    void *mark = bgsim_run_mark_get();
    if (source == NULL || mark == NULL) return source;
    static void *timer_slot;
    run_source entry = {source, queue, mark, type == bgsim_default_symbol(&timer_slot, "_dispatch_source_type_timer")};
    dispatch_retain(source);
    while (__atomic_test_and_set(&run_sources_lock, __ATOMIC_ACQUIRE)) {}
    if (run_source_count == run_source_capacity) {
        uint32_t capacity = run_source_capacity == 0 ? 64 : run_source_capacity * 2;
        run_source *grown = realloc(run_sources, capacity * sizeof *grown);
        if (grown == NULL) abort();
        run_sources = grown;
        run_source_capacity = capacity;
    }
    run_sources[run_source_count] = entry;
    __atomic_store_n(&run_source_count, run_source_count + 1, __ATOMIC_RELEASE);
    __atomic_clear(&run_sources_lock, __ATOMIC_RELEASE);
    return source;
}

/// The entry of `object` when it is a source made inside a run that has not ended.
static int find_run_source(void *object, run_source *found) {
    if (__atomic_load_n(&run_source_count, __ATOMIC_ACQUIRE) == 0) return 0;
    int known = 0;
    while (__atomic_test_and_set(&run_sources_lock, __ATOMIC_ACQUIRE)) {}
    for (uint32_t index = run_source_count; index > 0 && !known; index--) {  // the newest first
        if (run_sources[index - 1].source == object) {
            *found = run_sources[index - 1];
            known = 1;
        }
    }
    __atomic_clear(&run_sources_lock, __ATOMIC_RELEASE);
    return known;
}

/// The timers of ended runs freed so far.
static uint64_t sources_freed;

/// Frees a run's timer source once nothing but the shim holds it: Dispatch stops the process
/// when an inactive source is released, so it is first moved to a private queue of the shim's,
/// cancelled and then started (`_dispatch_source_activate` only unregisters a cancelled source:
/// it is never armed), then released. 0 when it is left kept.
static int free_source(const run_source *entry) {
    if (!entry->is_timer || !header_is_known || external_references(entry->source) != 1) return 0;
    typedef void (*target_fn)(void *, void *);
    typedef void (*object_call_fn)(void *);
    typedef void *(*create_fn)(const char *, void *);
    static void *target_slot, *activate_slot, *cancel_slot, *release_slot, *create_slot;
    target_fn set_target = (target_fn)bgsim_next_symbol(&target_slot, "dispatch_set_target_queue");
    object_call_fn activate = (object_call_fn)bgsim_next_symbol(&activate_slot, "dispatch_activate");
    object_call_fn cancel = (object_call_fn)bgsim_next_symbol(&cancel_slot, "dispatch_source_cancel");
    object_call_fn release = (object_call_fn)bgsim_next_symbol(&release_slot, "dispatch_release");
    create_fn create = (create_fn)bgsim_next_symbol(&create_slot, "dispatch_queue_create");
    static void *retiring;
    void *queue = __atomic_load_n(&retiring, __ATOMIC_ACQUIRE);
    if (queue == NULL) {
        void *made = create("bgsim.retired-sources", NULL);
        void *expected = NULL;
        if (__atomic_compare_exchange_n(&retiring, &expected, made, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            queue = made;
        } else {
            release(made);
            queue = expected;
        }
    }
    set_target(entry->source, queue);
    cancel(entry->source);    // first: activated cancelled, it is never armed (and needs no handler)
    activate(entry->source);
    release(entry->source);
    return 1;
}

void bgsim_real_dispatch_run_ended(void *mark) {
    if (__atomic_load_n(&run_source_count, __ATOMIC_ACQUIRE) == 0) return;
    // The run's entries leave the table under the lock; they are freed after it (Dispatch calls).
    uint32_t ended_count = 0, ended_capacity = 0;
    run_source *ended = NULL;
    while (__atomic_test_and_set(&run_sources_lock, __ATOMIC_ACQUIRE)) {}
    uint32_t kept = 0;
    for (uint32_t index = 0; index < run_source_count; index++) {
        if (run_sources[index].mark != mark) {
            run_sources[kept++] = run_sources[index];
            continue;
        }
        if (ended_count == ended_capacity) {
            ended_capacity = ended_capacity == 0 ? 16 : ended_capacity * 2;
            run_source *grown = realloc(ended, ended_capacity * sizeof *grown);
            if (grown == NULL) abort();
            ended = grown;
        }
        ended[ended_count++] = run_sources[index];
    }
    __atomic_store_n(&run_source_count, kept, __ATOMIC_RELEASE);
    __atomic_clear(&run_sources_lock, __ATOMIC_RELEASE);
    for (uint32_t index = 0; index < ended_count; index++) {
        if (free_source(&ended[index])) __atomic_add_fetch(&sources_freed, 1, __ATOMIC_RELAXED);
    }
    free(ended);
}

uint64_t bgsim_real_dispatch_sources_freed(void) { return __atomic_load_n(&sources_freed, __ATOMIC_RELAXED); }

/// Hands a call on a run's source to the engine: 1 when the run took it. `call` carries the
/// operation and its arguments; its `queue` is set to the source's target queue, resolved.
static int hand_over_source(void *object, const char *function, int32_t operation, bgsim_dispatch_call *call) {
    void *mark = bgsim_run_mark_get();
    run_source entry;
    if (mark == NULL || object == NULL || !find_run_source(object, &entry)) return 0;
    bgsim_real_dispatch_fn observer = __atomic_load_n(&bgsim_real_dispatch_observer, __ATOMIC_ACQUIRE);
    if (observer == NULL) return 0;
    if (!entry.is_timer) {
        // Any other source: only its start is told (an escape).
        if (operation == BGSIM_DISPATCH_TIMER_ACTIVATE) operation = BGSIM_DISPATCH_SOURCE;
        if (operation != BGSIM_DISPATCH_SOURCE) return 0;
    } else if (operation == BGSIM_DISPATCH_SOURCE) {
        operation = BGSIM_DISPATCH_TIMER_RESUME;
    }
    // A source made with no queue targets the default-priority global queue.
    void *queue = entry.queue != NULL ? entry.queue : dispatch_get_global_queue(0, 0);
    const char *label = dispatch_queue_get_label(queue);
    call->label = label != NULL ? label : "";
    call->function = function;
    call->operation = operation;
    call->source = object;
    call->origin = queue;
    call->queue = bgsim_resolve_queue(queue, &call->queueKind);
    return observer(mark, call);
}

/// Stops the process as Dispatch does when its client breaks its contract: its message on
/// stderr, then a trap.
__attribute__((noreturn)) void bgsim_dispatch_client_crash(const char *message, const char *label) {
    fprintf(stderr, "BUG IN CLIENT OF LIBDISPATCH: %s%s%s%s\n", message, label[0] != 0 ? " [" : "", label,
            label[0] != 0 ? "]" : "");
    fflush(stderr);
    __builtin_trap();
}

static int hand_over_timer(void *source, const char *function, int32_t operation) {
    if (bgsim_run_mark_get() == NULL) return 0;
    bgsim_dispatch_call call = {0};
    if (!hand_over_source(source, function, operation, &call)) return 0;
    // A resume with no suspension to undo (Dispatch's `_dispatch_lane_resume`).
    if (call.violated) bgsim_dispatch_client_crash("Over-resume of an object", "");
    return 1;
}

// MARK: Releasing a timer

/// Tells the engine that the app lets go of its last reference to `object` when it is a timer
/// made in a run (only the shim's is left): a device cancels an active timer then, and stops
/// the process for a suspended or inactive one.
static void tell_released(void *object) {
    run_source entry;
    if (!header_is_known || !find_run_source(object, &entry) || !entry.is_timer || external_references(object) != 2) return;
    bgsim_dispatch_call call = {0};
    if (!hand_over_source(object, "dispatch_release", BGSIM_DISPATCH_TIMER_RELEASED, &call)) return;
    if (call.violated) bgsim_dispatch_client_crash(call.result == 1 ? "Release of an inactive object" : "Release of a suspended object", "");
}

void dispatch_release(void *object) {
    BGSIM_NEXT(dispatch_release, object_fn);
    if (object != NULL && bgsim_run_mark_get() != NULL && __atomic_load_n(&run_source_count, __ATOMIC_RELAXED) != 0) {
        tell_released(object);
    }
    next_dispatch_release(object);
}

void dispatch_resume(void *object) {
    BGSIM_NEXT(dispatch_resume, object_fn);
    if (hand_over_timer(object, "dispatch_resume", BGSIM_DISPATCH_SOURCE)) return;
    next_dispatch_resume(object);
}

void dispatch_activate(void *object) {
    BGSIM_NEXT(dispatch_activate, object_fn);
    if (hand_over_timer(object, "dispatch_activate", BGSIM_DISPATCH_TIMER_ACTIVATE)) return;
    next_dispatch_activate(object);
}

void dispatch_suspend(void *object) {
    BGSIM_NEXT(dispatch_suspend, object_fn);
    if (hand_over_timer(object, "dispatch_suspend", BGSIM_DISPATCH_TIMER_SUSPEND)) return;
    next_dispatch_suspend(object);
}

typedef void (*set_timer_fn)(void *, uint64_t, uint64_t, uint64_t);

void dispatch_source_set_timer(void *source, uint64_t start, uint64_t interval, uint64_t leeway) {
    BGSIM_NEXT(dispatch_source_set_timer, set_timer_fn);
    if (bgsim_run_mark_get() != NULL) {
        bgsim_dispatch_call call = {0};
        call.deadline = bgsim_virtual_deadline(start);
        call.interval = interval == ~0ull ? -1 : (int64_t)(interval / 1000);
        if (hand_over_source(source, "dispatch_source_set_timer", BGSIM_DISPATCH_TIMER_SET, &call)) return;
    }
    next_dispatch_source_set_timer(source, start, interval, leeway);
}

typedef void (*set_handler_fn)(void *, void *);

/// The event or cancel handler of a run's timer: kept by the engine (the block copied).
static int hand_over_handler(void *source, void *handler, const char *function, int32_t operation) {
    if (bgsim_run_mark_get() == NULL) return 0;
    bgsim_dispatch_call call = {0};
    call.block = handler;
    return hand_over_source(source, function, operation, &call);
}

void dispatch_source_set_event_handler(void *source, void *handler) {
    BGSIM_NEXT(dispatch_source_set_event_handler, set_handler_fn);
    if (hand_over_handler(source, handler, "dispatch_source_set_event_handler", BGSIM_DISPATCH_TIMER_HANDLER)) return;
    next_dispatch_source_set_event_handler(source, handler);
}

void dispatch_source_set_cancel_handler(void *source, void *handler) {
    BGSIM_NEXT(dispatch_source_set_cancel_handler, set_handler_fn);
    if (hand_over_handler(source, handler, "dispatch_source_set_cancel_handler", BGSIM_DISPATCH_TIMER_CANCEL_HANDLER)) return;
    next_dispatch_source_set_cancel_handler(source, handler);
}

void dispatch_source_cancel(void *source) {
    BGSIM_NEXT(dispatch_source_cancel, object_fn);
    if (hand_over_timer(source, "dispatch_source_cancel", BGSIM_DISPATCH_TIMER_CANCEL)) return;
    next_dispatch_source_cancel(source);
}

typedef intptr_t (*test_cancel_fn)(void *);
typedef uintptr_t (*get_data_fn)(void *);

intptr_t dispatch_source_testcancel(void *source) {
    BGSIM_NEXT(dispatch_source_testcancel, test_cancel_fn);
    if (bgsim_run_mark_get() != NULL) {
        bgsim_dispatch_call call = {0};
        if (hand_over_source(source, "dispatch_source_testcancel", BGSIM_DISPATCH_TIMER_TEST_CANCEL, &call)) {
            return (intptr_t)call.result;
        }
    }
    return next_dispatch_source_testcancel(source);
}

uintptr_t dispatch_source_get_data(void *source) {
    BGSIM_NEXT(dispatch_source_get_data, get_data_fn);
    run_source entry;
    // A simulated timer fires once per handler call: no fires are merged.
    if (bgsim_run_mark_get() != NULL && find_run_source(source, &entry) && entry.is_timer) return 1;
    return next_dispatch_source_get_data(source);
}

#else

void bgsim_real_dispatch_run_ended(void *mark) { (void)mark; }

uint64_t bgsim_real_dispatch_sources_freed(void) { return 0; }

#endif
