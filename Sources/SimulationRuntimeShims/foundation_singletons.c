// Foundation's process-wide `NotificationCenter.default` and `OperationQueue.main`, one per
// simulated app process inside a run, and `UserDefaults.standard`, one per run (Linux).
//
// A run simulates many app processes (and a campaign many runs) in one OS process, and
// `NotificationCenter.default` is one object per OS process: an observer a killed process added,
// or one from an earlier run, still received the posts of a later process, its block reaching an
// app that was gone. On a device each launch starts with its own center.
//
// App code reads it through its getter, a Swift function of FoundationEssentials: `swiftcall`
// with the metatype as `self`, returning the object owned (+1). Inside a run the getter is this
// file's: it asks the engine (`bgsim_foundation_singletons_register`) for the live process's
// center, retained; outside runs, or when the engine has none, Foundation's own getter runs.
// Foundation's own code reaching the center from inside Foundation still gets Foundation's.
//
// `OperationQueue.main` had the same problem: an operation a run (or a killed process) left on
// it, whose turn on the main queue never came, stayed there, and every later
// `waitUntilAllOperationsAreFinished()` on it, which Linux Foundation's `post` makes for an
// observer added with `queue: .main`, waited for it. Its getter, and `OperationQueue.current`'s
// on the simulated main thread, give each simulated process a main queue of its own.
// Foundation's own code still reaches its main queue (it calls these getters through the class's
// table, not by name); the simulator's queue counts as equal to it for that reason.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>

static bgsim_foundation_singleton_fn singleton_provider;

void bgsim_foundation_singletons_register(bgsim_foundation_singleton_fn provider) {
    __atomic_store_n(&singleton_provider, provider, __ATOMIC_RELEASE);
}

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
typedef __attribute__((swiftcall)) void *(*singleton_getter_fn)(void *__attribute__((swift_context)));

/// The run's object of `kind`, retained, when the calling thread is in a run and the engine has
/// one; NULL otherwise.
static void *run_singleton(int32_t kind) {
    void *mark = bgsim_run_mark_get();
    bgsim_foundation_singleton_fn provider = __atomic_load_n(&singleton_provider, __ATOMIC_ACQUIRE);
    if (mark == NULL || provider == NULL) return NULL;
    return provider(mark, kind);
}

/// Defines `function`, the getter of the Swift class property whose mangled name is `symbol`:
/// inside a run, the run's object of `kind` (`BGSIM_SINGLETON_`); otherwise Foundation's own.
#define RUN_SINGLETON_GETTER(function, symbol, kind) \
    __attribute__((swiftcall)) void *function(void *__attribute__((swift_context)) metatype) __asm__(symbol); \
    __attribute__((swiftcall)) void *function(void *__attribute__((swift_context)) metatype) { \
        void *object = run_singleton(kind); \
        if (object != NULL) return object; \
        static void *next_slot; \
        singleton_getter_fn next = (singleton_getter_fn)bgsim_next_symbol(&next_slot, symbol); \
        return next(metatype); \
    }

// `NotificationCenter.default` (FoundationEssentials): the simulated process's own center.
RUN_SINGLETON_GETTER(notification_center_default, "$s20FoundationEssentials18NotificationCenterC7defaultACvgZ",
                     BGSIM_SINGLETON_NOTIFICATION_CENTER)

// `UserDefaults.standard` (Foundation): the run's own defaults, so what one run stores never
// reaches the next.
RUN_SINGLETON_GETTER(user_defaults_standard, "$s10Foundation12UserDefaultsC8standardACvgZ", BGSIM_SINGLETON_USER_DEFAULTS)

// `OperationQueue.main` (Foundation): the simulated process's own main queue.
RUN_SINGLETON_GETTER(operation_queue_main, "$s10Foundation14OperationQueueC4mainACvgZ", BGSIM_SINGLETON_MAIN_OPERATION_QUEUE)

// `OperationQueue.current` (Foundation, an optional): on the simulated main thread, that
// process's main queue; elsewhere Foundation's answer (the queue whose operation runs, or nil).
RUN_SINGLETON_GETTER(operation_queue_current, "$s10Foundation14OperationQueueC7currentACSgvgZ",
                     BGSIM_SINGLETON_CURRENT_OPERATION_QUEUE)

#endif
