// Real Dispatch inside a run (see the header). App code sends work with `DispatchQueue.main.async`,
// `DispatchQueue.global().async`, a serial queue of its own, `asyncAfter`, `sync` and groups. Made
// for real, the work would run on a real thread, outside the simulation, racing with the run (a
// callback that resumes a task before or after the task suspends takes the run two ways). On a
// thread with a run mark each such call is handed to the engine instead, which runs the work on
// the run's simulated queue for that Dispatch queue (the main queue, the global queue, one serial
// queue per queue the app made) or reports it; the call is then not made.
//
// To know what a queue is, the queue constructors are defined here too (on every thread: a queue
// is often made outside a run, in a `static let`): each queue the process makes carries, as a
// queue-specific value under this file's keys, whether it is concurrent and the queue it targets.
// Concurrency is an attribute, so the attribute constructors note which attributes derive from
// `DISPATCH_QUEUE_CONCURRENT`.
//
// Declared with untyped pointers: this file does not include Dispatch's headers (their block
// types need -fblocks); the ABI is the same.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <execinfo.h>

extern const char *dispatch_queue_get_label(void *queue);
extern void *dispatch_queue_get_specific(void *queue, const void *key);
extern void dispatch_queue_set_specific(void *queue, const void *key, void *context, void (*destructor)(void *));
extern void dispatch_group_enter(void *group);
extern void dispatch_group_leave(void *group);
extern void dispatch_retain(void *object);
void dispatch_release(void *object);  // defined below: a run timer's last release is told
// Dispatch's internal references (libdispatch exports them; queued work holds its queue so).
extern void *_os_object_retain_internal(void *object);
extern void _os_object_release_internal(void *object);
extern void *dispatch_get_global_queue(long identifier, unsigned long flags);
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

static bgsim_real_dispatch_fn real_dispatch_observer;

void bgsim_real_dispatch_register(bgsim_real_dispatch_fn observer) {
    __atomic_store_n(&real_dispatch_observer, observer, __ATOMIC_RELEASE);
}

// MARK: What a queue is

/// The keys of the queue-specific values this file sets (their addresses are the keys).
static char concurrency_key;
static char target_key;

/// Attributes that make a concurrent queue: `DISPATCH_QUEUE_CONCURRENT` and those derived from
/// it. Dispatch's attributes are static, so the set is small and never shrinks.
#define CONCURRENT_ATTRIBUTE_CAPACITY 64
static void *concurrent_attributes[CONCURRENT_ATTRIBUTE_CAPACITY];
static int32_t concurrent_attribute_count;
static char concurrent_attributes_lock;

void *bgsim_default_symbol(void **slot, const char *name) {
    void *symbol = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (symbol == NULL) {
        symbol = dlsym(RTLD_DEFAULT, name);
        __atomic_store_n(slot, symbol, __ATOMIC_RELEASE);
    }
    return symbol;
}

static void *main_queue(void) {
    static void *slot;
    return bgsim_default_symbol(&slot, "_dispatch_main_q");
}

static int is_concurrent_attribute(void *attribute) {
    if (attribute == NULL) return 0;
    static void *slot;
    if (attribute == bgsim_default_symbol(&slot, "_dispatch_queue_attr_concurrent")) return 1;
    int32_t count = __atomic_load_n(&concurrent_attribute_count, __ATOMIC_ACQUIRE);
    for (int32_t index = 0; index < count; index++) {
        if (__atomic_load_n(&concurrent_attributes[index], __ATOMIC_RELAXED) == attribute) return 1;
    }
    return 0;
}

/// Notes `derived`, made from `base`, as concurrent when `base` is.
static void derive_attribute(void *base, void *derived) {
    if (derived == NULL || !is_concurrent_attribute(base) || is_concurrent_attribute(derived)) return;
    while (__atomic_test_and_set(&concurrent_attributes_lock, __ATOMIC_ACQUIRE)) {}
    int32_t count = concurrent_attribute_count;
    int known = 0;
    for (int32_t index = 0; index < count; index++) known |= concurrent_attributes[index] == derived;
    if (!known && count < CONCURRENT_ATTRIBUTE_CAPACITY) {
        __atomic_store_n(&concurrent_attributes[count], derived, __ATOMIC_RELAXED);
        __atomic_store_n(&concurrent_attribute_count, count + 1, __ATOMIC_RELEASE);
    }
    __atomic_clear(&concurrent_attributes_lock, __ATOMIC_RELEASE);
}

typedef void *(*attribute_qos_fn)(void *, unsigned int, int);
typedef void *(*attribute_fn)(void *);
typedef void *(*attribute_frequency_fn)(void *, unsigned long);

void *dispatch_queue_attr_make_with_qos_class(void *attribute, unsigned int qos, int relative) {
    BGSIM_NEXT(dispatch_queue_attr_make_with_qos_class, attribute_qos_fn);
    void *made = next_dispatch_queue_attr_make_with_qos_class(attribute, qos, relative);
    derive_attribute(attribute, made);
    return made;
}

void *dispatch_queue_attr_make_initially_inactive(void *attribute) {
    BGSIM_NEXT(dispatch_queue_attr_make_initially_inactive, attribute_fn);
    void *made = next_dispatch_queue_attr_make_initially_inactive(attribute);
    derive_attribute(attribute, made);
    return made;
}

void *dispatch_queue_attr_make_with_autorelease_frequency(void *attribute, unsigned long frequency) {
    BGSIM_NEXT(dispatch_queue_attr_make_with_autorelease_frequency, attribute_frequency_fn);
    void *made = next_dispatch_queue_attr_make_with_autorelease_frequency(attribute, frequency);
    derive_attribute(attribute, made);
    return made;
}

/// Whether the queue being made is Foundation's own (the one under an `OperationQueue`): a
/// caller in the few frames above is in libFoundation.
static int made_by_foundation(void) {
    void *frames[10];
    int count = backtrace(frames, 10);
    for (int index = 1; index < count; index++) {
        Dl_info info;
        if (dladdr(frames[index], &info) != 0 && info.dli_fname != NULL && strstr(info.dli_fname, "libFoundation") != NULL) {
            return 1;
        }
    }
    return 0;
}

// The first `backtrace` loads the unwinder (a `dlopen`): done at load, not inside a run.
__attribute__((constructor)) static void load_unwinder(void) {
    void *frame[1];
    (void)backtrace(frame, 1);
}

/// Marks a queue just made: concurrent or not, and its target. The concurrent queue under an
/// `OperationQueue` runs one block at a time: swift-corelibs-foundation's OperationQueue frees a
/// cancelled operation that the operations it depends on still point to when they run at once
/// (a crash Darwin's Foundation does not have). Its blocks are still not ordered by the queue
/// (`BGSIM_QUEUE_ONE_AT_A_TIME`): operations that may run at once on a device race as they would
/// there, and the queue's own locks and hand-offs order those that may not.
static void note_queue(void *queue, void *attribute, void *target) {
    if (queue == NULL) return;
    if (is_concurrent_attribute(attribute)) {
        int32_t kind = made_by_foundation() ? BGSIM_QUEUE_ONE_AT_A_TIME : BGSIM_QUEUE_CONCURRENT;
        dispatch_queue_set_specific(queue, &concurrency_key, (void *)(uintptr_t)kind, NULL);
    }
    if (target != NULL) dispatch_queue_set_specific(queue, &target_key, target, NULL);
}

/// Tells the run, when the calling thread is in one, that `queue` was just made: the simulator
/// forgets a simulated queue it gave an earlier queue at the same address (Dispatch gives a new
/// queue a freed one's memory as the allocator pleases, so whether a `DispatchQueue(label:)`
/// made per call found an old route would differ between reruns of one seed).
static void tell_queue_made(void *queue, const char *function) {
    void *mark = bgsim_run_mark_get();
    if (mark == NULL || queue == NULL) return;
    bgsim_real_dispatch_fn observer = __atomic_load_n(&real_dispatch_observer, __ATOMIC_ACQUIRE);
    if (observer == NULL) return;
    bgsim_dispatch_call call = {0};
    call.label = "";
    call.function = function;
    call.operation = BGSIM_DISPATCH_QUEUE_MADE;
    call.queue = queue;
    (void)observer(mark, &call);
}

typedef void *(*queue_create_fn)(const char *, void *);
typedef void *(*queue_create_target_fn)(const char *, void *, void *);

void *dispatch_queue_create(const char *label, void *attribute) {
    BGSIM_NEXT(dispatch_queue_create, queue_create_fn);
    void *queue = next_dispatch_queue_create(label, attribute);
    note_queue(queue, attribute, NULL);
    tell_queue_made(queue, "dispatch_queue_create");
    return queue;
}

void *dispatch_queue_create_with_target(const char *label, void *attribute, void *target) {
    BGSIM_NEXT(dispatch_queue_create_with_target, queue_create_target_fn);
    void *queue = next_dispatch_queue_create_with_target(label, attribute, target);
    note_queue(queue, attribute, target);
    tell_queue_made(queue, "dispatch_queue_create_with_target");
    return queue;
}

static int is_global(void *queue) {
    const char *label = dispatch_queue_get_label(queue);
    return label != NULL && strncmp(label, "com.apple.root.", 15) == 0;
}

/// `BGSIM_QUEUE_CONCURRENT` or `BGSIM_QUEUE_ONE_AT_A_TIME` for a concurrent queue made in this
/// process (`note_queue`), else 0.
static int32_t concurrent_kind(void *queue) {
    return (int32_t)(uintptr_t)dispatch_queue_get_specific(queue, &concurrency_key);
}

static int is_concurrent_queue(void *queue) { return concurrent_kind(queue) != 0; }

/// The queue that runs `queue`'s work, and its kind: a queue that targets the main queue or a
/// serial queue runs its work there (one at a time with that queue's), as on a device.
static void *resolve(void *queue, int32_t *kind) {
    void *main = main_queue();
    for (int depth = 0; depth < 16; depth++) {
        if (queue == main) {
            *kind = BGSIM_QUEUE_MAIN;
            return queue;
        }
        if (is_global(queue)) {
            *kind = BGSIM_QUEUE_GLOBAL;
            return queue;
        }
        if (is_concurrent_queue(queue)) {
            *kind = concurrent_kind(queue);
            return queue;
        }
        void *target = dispatch_queue_get_specific(queue, &target_key);
        if (target == NULL || target == queue || (target != main && (is_global(target) || is_concurrent_queue(target)))) {
            break;
        }
        queue = target;
    }
    *kind = BGSIM_QUEUE_SERIAL;
    return queue;
}

// MARK: Calls

/// Hands `call` to the engine when the calling thread is in a run: 1 when the run took it.
static int hand_over(void *queue, const char *function, int32_t operation, int32_t barrier,
                     bgsim_dispatch_call *call) {
    void *mark = bgsim_run_mark_get();
    if (mark == NULL || queue == NULL) return 0;
    bgsim_real_dispatch_fn observer = __atomic_load_n(&real_dispatch_observer, __ATOMIC_ACQUIRE);
    if (observer == NULL) return 0;
    const char *label = dispatch_queue_get_label(queue);
    call->label = label != NULL ? label : "";
    call->function = function;
    call->operation = operation;
    call->barrier = barrier;
    call->origin = queue;
    call->queue = resolve(queue, &call->queueKind);
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
    return hand_over(queue, function, operation, barrier, &call);
}

static int hand_over_function(void *queue, void *context, void (*work)(void *), const char *function,
                              int32_t operation, int32_t barrier, void *group, uint64_t when) {
    if (bgsim_run_mark_get() == NULL) return 0;
    bgsim_dispatch_call call = {0};
    call.context = context;
    call.work = work;
    call.group = group;
    call.deadline = operation == BGSIM_DISPATCH_AFTER ? bgsim_virtual_deadline(when) : 0;
    return hand_over(queue, function, operation, barrier, &call);
}

int bgsim_real_dispatch_hand_over_main(const char *function, int32_t operation, bgsim_dispatch_call *call) {
    return hand_over(main_queue(), function, operation, 0, call);
}

void bgsim_real_dispatch_group_left(void *group) {
    void *mark = bgsim_run_mark_get();
    if (mark == NULL || group == NULL) return;
    bgsim_real_dispatch_fn observer = __atomic_load_n(&real_dispatch_observer, __ATOMIC_ACQUIRE);
    if (observer == NULL) return;
    bgsim_dispatch_call call = {0};
    call.label = "";
    call.function = "dispatch_group_leave";
    call.operation = BGSIM_DISPATCH_GROUP_LEFT;
    call.group = group;
    (void)observer(mark, &call);
}

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
    bgsim_real_dispatch_fn observer = __atomic_load_n(&real_dispatch_observer, __ATOMIC_ACQUIRE);
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
    call->queue = resolve(queue, &call->queueKind);
    return observer(mark, call);
}

/// Stops the process as Dispatch does when its client breaks its contract: its message on
/// stderr, then a trap.
__attribute__((noreturn)) static void client_crash(const char *message, const char *label) {
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
    if (call.violated) client_crash("Over-resume of an object", "");
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
    if (call.violated) client_crash(call.result == 1 ? "Release of an inactive object" : "Release of a suspended object", "");
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
    int concurrent = queue == NULL || is_global(queue) || is_concurrent_queue(queue);
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
    if (bgsim_run_mark_get() == NULL || __atomic_load_n(&real_dispatch_observer, __ATOMIC_ACQUIRE) == NULL) {
        next_dispatch_apply(iterations, queue, block);
        return;
    }
    apply_in_run(iterations, queue, block, NULL, NULL);
}

void dispatch_apply_f(size_t iterations, void *queue, void *context, void (*work)(void *, size_t)) {
    BGSIM_NEXT(dispatch_apply_f, apply_function_fn);
    if (bgsim_run_mark_get() == NULL || __atomic_load_n(&real_dispatch_observer, __ATOMIC_ACQUIRE) == NULL) {
        next_dispatch_apply_f(iterations, queue, context, work);
        return;
    }
    apply_in_run(iterations, queue, NULL, context, work);
}

// MARK: Thread.isMainThread

typedef unsigned char (*is_main_thread_fn)(void);

// Foundation's `Thread.isMainThread` asks whether the OS thread is the process's first one; a
// run's simulated main thread is carried by another (a campaign's worker). On a run's thread the
// engine answers whether the simulated main thread is running.
unsigned char _CFIsMainThread(void) {
    BGSIM_NEXT(_CFIsMainThread, is_main_thread_fn);
    void *mark = bgsim_run_mark_get();
    bgsim_real_dispatch_fn observer = __atomic_load_n(&real_dispatch_observer, __ATOMIC_ACQUIRE);
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
    bgsim_real_dispatch_fn observer = __atomic_load_n(&real_dispatch_observer, __ATOMIC_ACQUIRE);
    if (mark == NULL || observer == NULL || key == NULL) return next_dispatch_get_specific(key);
    bgsim_dispatch_call call = {0};
    call.label = "";
    call.function = "dispatch_get_specific";
    call.operation = BGSIM_DISPATCH_CURRENT_QUEUE;
    if (!observer(mark, &call)) return next_dispatch_get_specific(key);
    void *queue = call.result == -1 ? main_queue() : (void *)(uintptr_t)call.result;
    for (int depth = 0; queue != NULL && depth < 16; depth++) {
        void *value = dispatch_queue_get_specific(queue, key);
        if (value != NULL) return value;
        void *target = dispatch_queue_get_specific(queue, &target_key);
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
    if (!hand_over(queue, function, operation, 0, &call)) return 0;
    if (call.violated) {
        client_crash(operation == BGSIM_DISPATCH_ASSERT_ON ? "Assertion failed: Block was expected to execute on queue"
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

#else

void bgsim_real_dispatch_register(bgsim_real_dispatch_fn observer) { (void)observer; }

void bgsim_real_dispatch_run_ended(void *mark) { (void)mark; }

uint64_t bgsim_real_dispatch_sources_freed(void) { return 0; }

void bgsim_real_dispatch_group_left(void *group) { (void)group; }

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

int bgsim_dispatch_group_is_empty(void *group) {
    (void)group;
    return 1;
}

#endif
