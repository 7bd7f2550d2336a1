// Plain accesses inside a run (see shims_plain_accesses.h, `bgsim_plain_accesses`): the reads
// and writes app code makes to its own stored properties, globals and captured variables, which
// Swift checks for exclusivity at run time with `swift_beginAccess`. This file defines that
// function: on a thread of a run that checks data races, an access whose caller is app code is
// told to the engine before the runtime's own check, and so are the frees of Swift objects
// (`swift_deallocClassInstance`, `swift_deallocObject`: an address may then be reused by new
// state) and, through `bgsim_plain_sync`, the real locks, semaphores and groups that order
// accesses (plain_mutexes.c, plain_waits.c).
//
// Which caller is app code is app_code.c's (`bgsim_is_app_site`), as is whether the process has
// app code to check at all (`bgsim_plain_accesses_supported`).
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__) && defined(__LP64__)
#include <string.h>

BGSIM_TLS void *bgsim_run_accesses_tls;

/// Inside a call to the engine: the engine's own accesses, frees and locks are not the app's.
static BGSIM_TLS int observing;

bgsim_plain_access_fn bgsim_plain_access_observer;
static bgsim_plain_freed_fn freed_observer;
static bgsim_plain_sync_fn sync_observer;

/// The engine's and the toolchain's modules, whose code is never app code (set once, at
/// registration).
#define MAX_EXCLUDED_MODULES 64
static char *excluded_text;
const char *bgsim_excluded_modules[MAX_EXCLUDED_MODULES];
size_t bgsim_excluded_module_lengths[MAX_EXCLUDED_MODULES];
int bgsim_excluded_module_count;

void bgsim_plain_accesses_register(bgsim_plain_access_fn access, bgsim_plain_freed_fn freed,
                                   bgsim_plain_sync_fn sync, const char *engineModules) {
    if (excluded_text == NULL) {
        excluded_text = strdup(engineModules);
        for (char *cursor = excluded_text; *cursor != 0 && bgsim_excluded_module_count < MAX_EXCLUDED_MODULES;) {
            char *end = strchr(cursor, ',');
            size_t length = end != NULL ? (size_t)(end - cursor) : strlen(cursor);
            bgsim_excluded_modules[bgsim_excluded_module_count] = cursor;
            bgsim_excluded_module_lengths[bgsim_excluded_module_count++] = length;
            if (end == NULL) break;
            cursor = end + 1;
        }
    }
    __atomic_store_n(&freed_observer, freed, __ATOMIC_RELEASE);
    __atomic_store_n(&sync_observer, sync, __ATOMIC_RELEASE);
    __atomic_store_n(&bgsim_plain_access_observer, access, __ATOMIC_RELEASE);
}

/// The calling thread's table when it checks plain accesses now, and the engine is not running.
static bgsim_plain_accesses *checking(void) {
    bgsim_plain_accesses *accesses = bgsim_run_accesses_tls;
    if (accesses == NULL || accesses->enabled == 0 || observing) return NULL;
    return accesses;
}

int bgsim_checks_plain_accesses(void) { return checking() != NULL; }

/// Whether `pointer` is on the calling thread's stack, near the frame of `frame` (a local of
/// the caller): a variable there belongs to one frame, and its address is reused by unrelated
/// frames of other threads.
static int is_on_stack(const void *pointer, const void *frame) {
    uintptr_t address = (uintptr_t)pointer, top = (uintptr_t)frame;
    return address >= top && address - top < (1u << 16);
}

/// The runtime's exclusivity flags: the low bit is set for a modification.
#define ACCESS_MODIFY 1u

typedef void (*begin_access_fn)(void *, void *, uintptr_t, void *);

static void *slot_swift_beginAccess;

/// The runtime's own `swift_beginAccess`, the first time: found, then called.
__attribute__((noinline)) static void first_begin_access(void *pointer, void *buffer, uintptr_t flags, void *pc) {
    ((begin_access_fn)bgsim_next_symbol(&slot_swift_beginAccess, "swift_beginAccess"))(pointer, buffer, flags, pc);
}

/// The runtime's own `swift_beginAccess` (or, before it is found, the function that finds it).
static inline begin_access_fn next_begin_access(void) {
    begin_access_fn next = __atomic_load_n((begin_access_fn *)&slot_swift_beginAccess, __ATOMIC_RELAXED);
    return __builtin_expect(next != NULL, 1) ? next : first_begin_access;
}

/// An access on a thread whose run checks plain accesses: told to the engine when its caller is
/// app code, then checked by the runtime.
__attribute__((noinline)) static void begin_access_in_run(void *pointer, void *buffer, uintptr_t flags, void *pc,
                                                         void *caller) {
    if (checking() != NULL && bgsim_is_app_site(caller)) {
        char frame;
        bgsim_plain_access_fn observer = __atomic_load_n(&bgsim_plain_access_observer, __ATOMIC_ACQUIRE);
        void *mark = bgsim_run_mark_get();
        if (observer != NULL && mark != NULL && !is_on_stack(pointer, &frame)) {
            observing = 1;
            observer(mark, pointer, (flags & ACCESS_MODIFY) != 0, caller);
            observing = 0;
        }
        // Last: the engine's own accesses in the observer come through here too.
        if (flags & ACCESS_MODIFY) bgsim_modified_tls = pointer;
    }
    next_begin_access()(pointer, buffer, flags, pc);
}

// Every checked access of the process comes here, the engine's too: outside a run that checks
// plain accesses it costs a thread-local load before the runtime's own (both tail calls).
void swift_beginAccess(void *pointer, void *buffer, uintptr_t flags, void *pc) {
    BGSIM_CALLER(caller);
    if (pc == NULL) pc = caller;
    if (__builtin_expect(bgsim_run_accesses_tls != NULL, 0)) {
        begin_access_in_run(pointer, buffer, flags, pc, caller);
        return;
    }
    next_begin_access()(pointer, buffer, flags, pc);
}

/// The lines of `markedLines`: 256 bytes each, hashed into 32,768 bits.
#define LINE_SHIFT 8
#define LINE_BITS 32768u

void bgsim_plain_accesses_mark(bgsim_plain_accesses *table, uintptr_t address) {
    uintptr_t line = (address >> LINE_SHIFT) % LINE_BITS;
    table->markedLines[line / 64] |= (uint64_t)1 << (line % 64);
}

/// Whether `size` bytes at `object` touch a marked line (a free of more lines than the table has
/// always does: it may hold anything).
static int touches_marked_line(const bgsim_plain_accesses *accesses, uintptr_t object, size_t size) {
    uintptr_t first = object >> LINE_SHIFT, last = (object + size - 1) >> LINE_SHIFT;
    if (last - first >= LINE_BITS) return 1;
    for (uintptr_t line = first; line <= last; line++) {
        uintptr_t bit = line % LINE_BITS;
        if (accesses->markedLines[bit / 64] & ((uint64_t)1 << (bit % 64))) return 1;
    }
    return 0;
}

/// Tells the engine that `size` bytes at `object` are freed, when they touch a line that holds a
/// location or a synchronisation object it keeps.
/// (Not only for frees by app code: an optimized destroyer tail-calls the free, so the caller
/// seen here is the runtime's release.)
__attribute__((noinline)) static void freed(void *object, size_t size) {
    bgsim_plain_accesses *accesses = checking();
    if (accesses == NULL || size == 0 || !touches_marked_line(accesses, (uintptr_t)object, size)) return;
    bgsim_plain_freed_fn observer = __atomic_load_n(&freed_observer, __ATOMIC_ACQUIRE);
    void *mark = bgsim_run_mark_get();
    if (observer == NULL || mark == NULL) return;
    observing = 1;
    observer(mark, object, size);
    observing = 0;
}

typedef void (*dealloc_fn)(void *, size_t, size_t);

static void *slot_swift_deallocClassInstance;
static void *slot_swift_deallocObject;

static inline dealloc_fn next_dealloc(void **slot, const char *name) {
    dealloc_fn next = __atomic_load_n((dealloc_fn *)slot, __ATOMIC_RELAXED);
    return __builtin_expect(next != NULL, 1) ? next : (dealloc_fn)bgsim_next_symbol(slot, name);
}

/// The runtime's own free of `slot`'s function, the first time: found, then called.
__attribute__((noinline)) static void first_dealloc(void *object, size_t size, size_t alignMask, void **slot,
                                                   const char *name) {
    next_dealloc(slot, name)(object, size, alignMask);
}

__attribute__((noinline)) static void dealloc_in_run(void *object, size_t size, size_t alignMask, void **slot,
                                                    const char *name) {
    freed(object, size);
    next_dealloc(slot, name)(object, size, alignMask);
}

void swift_deallocClassInstance(void *object, size_t size, size_t alignMask) {
    if (__builtin_expect(bgsim_run_accesses_tls != NULL, 0)) {
        dealloc_in_run(object, size, alignMask, &slot_swift_deallocClassInstance, "swift_deallocClassInstance");
        return;
    }
    dealloc_fn next = __atomic_load_n((dealloc_fn *)&slot_swift_deallocClassInstance, __ATOMIC_RELAXED);
    if (__builtin_expect(next == NULL, 0)) {
        first_dealloc(object, size, alignMask, &slot_swift_deallocClassInstance, "swift_deallocClassInstance");
        return;
    }
    next(object, size, alignMask);
}

void swift_deallocObject(void *object, size_t size, size_t alignMask) {
    if (__builtin_expect(bgsim_run_accesses_tls != NULL, 0)) {
        dealloc_in_run(object, size, alignMask, &slot_swift_deallocObject, "swift_deallocObject");
        return;
    }
    dealloc_fn next = __atomic_load_n((dealloc_fn *)&slot_swift_deallocObject, __ATOMIC_RELAXED);
    if (__builtin_expect(next == NULL, 0)) {
        first_dealloc(object, size, alignMask, &slot_swift_deallocObject, "swift_deallocObject");
        return;
    }
    next(object, size, alignMask);
}

void bgsim_plain_sync_slow(const void *object, int how) {
    bgsim_plain_accesses *accesses = checking();
    // Before the run's first tracked access no clock carries anything an access could need.
    if (accesses == NULL || accesses->locations == 0) return;
    bgsim_plain_sync_fn observer = __atomic_load_n(&sync_observer, __ATOMIC_ACQUIRE);
    void *mark = bgsim_run_mark_get();
    if (observer == NULL || mark == NULL) return;
    observing = 1;
    observer(mark, (void *)object, how);
    observing = 0;
}

void bgsim_plain_iterations(int how, size_t value) {
    bgsim_plain_accesses *accesses = checking();
    if (accesses == NULL) return;  // tracked or not: the first access may be in an iteration
    bgsim_plain_sync_fn observer = __atomic_load_n(&sync_observer, __ATOMIC_ACQUIRE);
    void *mark = bgsim_run_mark_get();
    if (observer == NULL || mark == NULL) return;
    observing = 1;
    observer(mark, (void *)(uintptr_t)value, how);
    observing = 0;
}

int bgsim_plain_engine_enter(void) {
    int was = observing;
    observing = 1;
    return was;
}

void bgsim_plain_engine_leave(int was) { observing = was; }

#else

void bgsim_plain_accesses_register(bgsim_plain_access_fn access, bgsim_plain_freed_fn freed,
                                   bgsim_plain_sync_fn sync, const char *engineModules) {
    (void)access;
    (void)freed;
    (void)sync;
    (void)engineModules;
}

BGSIM_TLS void *bgsim_run_accesses_tls;

void bgsim_plain_sync_slow(const void *object, int how) {
    (void)object;
    (void)how;
}

void bgsim_plain_iterations(int how, size_t value) {
    (void)how;
    (void)value;
}

int bgsim_plain_engine_enter(void) { return 0; }

void bgsim_plain_engine_leave(int was) { (void)was; }

void bgsim_plain_accesses_mark(bgsim_plain_accesses *table, uintptr_t address) {
    (void)table;
    (void)address;
}

#endif
