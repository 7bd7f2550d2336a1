// The Swift concurrency runtime's own happens-before marks, for the plain-access checks
// (plain_accesses.c): the runtime orders a task's steps, a continuation's resume and await, a
// task's completion and the wait for its value, and an actor's turns with atomics no one outside
// it sees, and tells ThreadSanitizer about each through two hook variables of the Swift runtime,
// `_swift_tsan_acquire` and `_swift_tsan_release` (swift/Threading/ThreadSanitizer.h), which
// ThreadSanitizer's start-up fills. The shim fills them too: each mark goes on to the hook set
// before (ThreadSanitizer's, when the process has it) and, on a thread of a run that checks plain
// accesses, to the engine, which keeps the marks on the run's own tasks (Scheduler+PlainAccesses).
//
// Also here: which task and actor the calling thread runs (`swift_task_getCurrent`,
// `swift_task_getCurrentExecutor`), for the accesses a task makes on an actor.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__) && defined(__LP64__)
#include <dlfcn.h>
#include <pthread.h>

typedef void (*runtime_mark_fn)(const void *);

/// The hooks that were set before the shim's (ThreadSanitizer's, or none).
static runtime_mark_fn previous_acquire, previous_release;

static void runtime_acquire(const void *address) {
    runtime_mark_fn previous = __atomic_load_n(&previous_acquire, __ATOMIC_RELAXED);
    if (previous != NULL) previous(address);
    bgsim_plain_sync(address, BGSIM_SYNC_RUNTIME_ACQUIRE);
}

static void runtime_release(const void *address) {
    runtime_mark_fn previous = __atomic_load_n(&previous_release, __ATOMIC_RELAXED);
    if (previous != NULL) previous(address);
    bgsim_plain_sync(address, BGSIM_SYNC_RUNTIME_RELEASE);
}

static int installed;

static void install(void) {
    runtime_mark_fn *acquire = dlsym(RTLD_DEFAULT, "_swift_tsan_acquire");
    runtime_mark_fn *release = dlsym(RTLD_DEFAULT, "_swift_tsan_release");
    if (acquire == NULL || release == NULL) return;
    __atomic_store_n(&previous_acquire, __atomic_load_n(acquire, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    __atomic_store_n(&previous_release, __atomic_load_n(release, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    // The runtime reads each variable once per mark; a mark made while they change goes to one
    // receiver or the other, and before any run checks plain accesses none matters.
    __atomic_store_n(acquire, runtime_acquire, __ATOMIC_RELEASE);
    __atomic_store_n(release, runtime_release, __ATOMIC_RELEASE);
    installed = 1;
}

int bgsim_concurrency_edges_install(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
    return installed;
}

/// `swift_task_getCurrentExecutor`'s result: two words, returned in two registers in the Swift
/// and the C conventions alike on x86-64 and arm64.
typedef struct {
    void *identity;
    uintptr_t implementation;
} executor_ref;

typedef void *(*current_task_fn)(void);
typedef executor_ref (*current_executor_fn)(void);

static void *slot_current_task, *slot_current_executor;

void bgsim_current_task(void **task, void **actor) {
    *task = NULL;
    *actor = NULL;
    current_task_fn current = (current_task_fn)bgsim_default_symbol(&slot_current_task, "swift_task_getCurrent");
    if (current == NULL || (*task = current()) == NULL) return;
    current_executor_fn executor =
        (current_executor_fn)bgsim_default_symbol(&slot_current_executor, "swift_task_getCurrentExecutor");
    if (executor != NULL) *actor = executor().identity;
}

#else

int bgsim_concurrency_edges_install(void) { return 0; }

void bgsim_current_task(void **task, void **actor) {
    *task = NULL;
    *actor = NULL;
}

#endif
