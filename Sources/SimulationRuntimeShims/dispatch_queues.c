// What a real Dispatch queue is, for the calls a run takes (see shims_real_dispatch.h,
// `bgsim_dispatch_call`'s `queueKind`): the main queue, a global (root) queue, or a queue the
// process made, serial or concurrent, and the queue whose work it runs after following its
// targets (`bgsim_resolve_queue`, which dispatch_calls.c and dispatch_sources.c ask;
// concurrent_perform.c and current_queue.c use its neighbours).
//
// To know what a queue is, the queue constructors are defined here (on every thread: a queue
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

#include <stdint.h>
#include <string.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <execinfo.h>

extern const char *dispatch_queue_get_label(void *queue);
extern void *dispatch_queue_get_specific(void *queue, const void *key);
extern void dispatch_queue_set_specific(void *queue, const void *key, void *context, void (*destructor)(void *));

// MARK: What a queue is

/// The keys of the queue-specific values this file sets (their addresses are the keys).
static char concurrency_key;
char bgsim_dispatch_target_key;

/// Attributes that make a concurrent queue: `DISPATCH_QUEUE_CONCURRENT` and those derived from
/// it. Dispatch's attributes are static, so the set is small and never shrinks.
#define CONCURRENT_ATTRIBUTE_CAPACITY 64
static void *concurrent_attributes[CONCURRENT_ATTRIBUTE_CAPACITY];
static int32_t concurrent_attribute_count;
static char concurrent_attributes_lock;

void *bgsim_main_queue(void) {
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
    if (target != NULL) dispatch_queue_set_specific(queue, &bgsim_dispatch_target_key, target, NULL);
}

/// Tells the run, when the calling thread is in one, that `queue` was just made: the simulator
/// forgets a simulated queue it gave an earlier queue at the same address (Dispatch gives a new
/// queue a freed one's memory as the allocator pleases, so whether a `DispatchQueue(label:)`
/// made per call found an old route would differ between reruns of one seed).
static void tell_queue_made(void *queue, const char *function) {
    void *mark = bgsim_run_mark_get();
    if (mark == NULL || queue == NULL) return;
    bgsim_real_dispatch_fn observer = __atomic_load_n(&bgsim_real_dispatch_observer, __ATOMIC_ACQUIRE);
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

int bgsim_is_global_queue(void *queue) {
    const char *label = dispatch_queue_get_label(queue);
    return label != NULL && strncmp(label, "com.apple.root.", 15) == 0;
}

/// `BGSIM_QUEUE_CONCURRENT` or `BGSIM_QUEUE_ONE_AT_A_TIME` for a concurrent queue made in this
/// process (`note_queue`), else 0.
static int32_t concurrent_kind(void *queue) {
    return (int32_t)(uintptr_t)dispatch_queue_get_specific(queue, &concurrency_key);
}

int bgsim_is_concurrent_queue(void *queue) { return concurrent_kind(queue) != 0; }

/// The queue that runs `queue`'s work, and its kind: a queue that targets the main queue or a
/// serial queue runs its work there (one at a time with that queue's), as on a device.
void *bgsim_resolve_queue(void *queue, int32_t *kind) {
    void *main = bgsim_main_queue();
    for (int depth = 0; depth < 16; depth++) {
        if (queue == main) {
            *kind = BGSIM_QUEUE_MAIN;
            return queue;
        }
        if (bgsim_is_global_queue(queue)) {
            *kind = BGSIM_QUEUE_GLOBAL;
            return queue;
        }
        if (bgsim_is_concurrent_queue(queue)) {
            *kind = concurrent_kind(queue);
            return queue;
        }
        void *target = dispatch_queue_get_specific(queue, &bgsim_dispatch_target_key);
        if (target == NULL || target == queue || (target != main && (bgsim_is_global_queue(target) || bgsim_is_concurrent_queue(target)))) {
            break;
        }
        queue = target;
    }
    *kind = BGSIM_QUEUE_SERIAL;
    return queue;
}

#endif
