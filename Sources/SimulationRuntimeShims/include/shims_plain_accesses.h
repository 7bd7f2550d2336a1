// Plain accesses inside a run (Linux, glibc, 64-bit; plain_accesses.c, app_code.c):
// `swift_beginAccess` (Swift's run-time exclusivity check of class properties, globals and
// captured variables) and the frees of Swift objects. On a thread of a run that checks data
// races, an access made by app code (told by its caller's symbol) is handed to the engine before
// the runtime's own check, and the real mutexes, semaphores and groups of the plain locks
// (shims_plain_locks.h) are happens-before edges; everywhere else each costs a thread-local load.
// So are the Swift concurrency runtime's own marks (concurrency_edges.c: the
// `_swift_tsan_acquire` and `_swift_tsan_release` hook variables it gives ThreadSanitizer, chained
// to ThreadSanitizer's own). Part of SimulationRuntimeShims.h, the module's umbrella header.
#ifndef SIMULATION_RUNTIME_SHIMS_PLAIN_ACCESSES_H
#define SIMULATION_RUNTIME_SHIMS_PLAIN_ACCESSES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether a run checks the plain accesses of app code for data races, and how many locations
/// its detector tracks: one per run, set for the run's threads with
/// ``bgsim_run_accesses_set`` and written only by the engine (plain_accesses.c reads it).
typedef struct bgsim_plain_accesses {
    /// Nonzero: plain accesses, frees and real synchronisation are told to the engine.
    int32_t enabled;
    /// The locations the run's race detector keeps (0: a lock needs no call).
    int32_t locations;
    /// Of those, the plain ones.
    int32_t plainLocations;
    int32_t reserved;
    /// The 256-byte lines of memory that hold, or held, a plain location or a synchronisation
    /// object the detector keeps, one bit per line hashed into 32,768 (`bgsim_plain_accesses_mark`):
    /// a free that touches no marked line has nothing to forget, and is not told to the engine.
    uint64_t markedLines[512];
} bgsim_plain_accesses;

/// The engine is about to change the detector's state itself (not from a callback of this
/// shim): until ``bgsim_plain_engine_leave``, the calling thread's accesses, frees and locks are
/// not told to the engine (a dictionary growing inside the change frees its old storage and may
/// take the runtime's locks; told, they would re-enter the state being changed). Returns what
/// to pass to the leave (calls nest).
int bgsim_plain_engine_enter(void);
/// Ends what ``bgsim_plain_engine_enter`` began (`was`: its result).
void bgsim_plain_engine_leave(int was);

/// Marks the line of `address` in `table` (`markedLines`): a free there is told to the engine.
void bgsim_plain_accesses_mark(bgsim_plain_accesses *_Nonnull table, uintptr_t address);

/// An access of app code on a thread of the run `mark`: to `address`, a write when `isWrite`,
/// from the call site `site` (a return address in the app's function).
typedef void (*bgsim_plain_access_fn)(void *_Nonnull mark, void *_Nonnull address, int isWrite, void *_Nonnull site);
/// `size` bytes at `address` were freed (a Swift object or box): locations there are new state.
typedef void (*bgsim_plain_freed_fn)(void *_Nonnull mark, void *_Nonnull address, size_t size);
/// How a ``bgsim_plain_sync_fn`` call orders accesses: a real mutex, dispatch semaphore or group
/// taken or waited for (`BGSIM_SYNC_ACQUIRE`), or released, signalled or left
/// (`BGSIM_SYNC_RELEASE`); or one of the Swift concurrency runtime's own happens-before marks
/// (`BGSIM_SYNC_RUNTIME_ACQUIRE`, `BGSIM_SYNC_RUNTIME_RELEASE`: a job enqueued and run, a
/// continuation resumed, a task completed and awaited, an actor unlocked and locked), on an
/// address of the runtime's that may be a task, an actor or a lock of its own; or a mutex,
/// semaphore or group just made at `object` (`BGSIM_SYNC_NEW`): what an earlier one at that
/// address released is not its (the memory of a lock inside a library's object is freed unseen).
/// Or the iterations of a `DispatchQueue.concurrentPerform` (`dispatch_apply`) the calling thread
/// runs one after another, where `object` carries a number, not an address:
/// `BGSIM_SYNC_ITERATIONS_BEGIN` (the iteration count), `BGSIM_SYNC_ITERATION` (the index of the
/// iteration that starts), `BGSIM_SYNC_ITERATIONS_END` (the count): on a device they run on
/// several worker threads, ordered only by what they synchronize with.
enum {
    BGSIM_SYNC_ACQUIRE = 0, BGSIM_SYNC_RELEASE = 1, BGSIM_SYNC_RUNTIME_ACQUIRE = 2, BGSIM_SYNC_RUNTIME_RELEASE = 3,
    BGSIM_SYNC_NEW = 4, BGSIM_SYNC_ITERATIONS_BEGIN = 5, BGSIM_SYNC_ITERATION = 6, BGSIM_SYNC_ITERATIONS_END = 7
};

/// An edge between the threads that use `object` (`how`: a `BGSIM_SYNC_` value).
typedef void (*bgsim_plain_sync_fn)(void *_Nonnull mark, void *_Nonnull object, int how);

/// Registers the engine's side of plain accesses (Linux with glibc: this target defines
/// `swift_beginAccess`, `swift_deallocClassInstance` and `swift_deallocObject`). `engineModules`
/// lists, comma-separated, the Swift modules whose code is not the app's. Called once per
/// process, before any thread is marked; where the shim is not built nothing is seen.
void bgsim_plain_accesses_register(bgsim_plain_access_fn _Nonnull access, bgsim_plain_freed_fn _Nonnull freed,
                                   bgsim_plain_sync_fn _Nonnull sync, const char *_Nonnull engineModules);

/// 1 where plain accesses are seen (Linux with glibc, 64-bit) and the main executable has app
/// code to see (a Swift function of a module the engine did not register as its own: `bgsim`
/// itself has none), else 0. Reads the symbol table the first time; call after registering.
int bgsim_plain_accesses_supported(void);

/// The mangled name of the main executable's function that contains `pc` (from its symbol
/// table), or NULL: outside the executable, or no symbol there.
const char *_Nullable bgsim_function_symbol(const void *_Nullable pc);

/// 1 when `pc` is in app code: a Swift function of the main executable whose module the engine
/// did not register as its own (`bgsim_plain_accesses_register`); 0 otherwise, and off Linux.
int bgsim_is_app_function(uintptr_t pc);

/// The nearest 16-byte-aligned address at or below `from`, and no more than `reach` bytes below
/// it, whose word is the address of one of the main executable's Swift class metadata (a `$s…CN`
/// symbol of its symbol table), as a class instance's first word is: that address (the instance,
/// if it is one), with the metadata in `*metadata`; NULL when there is none (or off Linux).
/// Words are read with `process_vm_readv`, so an unmapped page is skipped, never a fault.
const void *_Nullable bgsim_class_instance_at_or_below(const void *_Nonnull from, size_t reach,
                                                       const void *_Nullable *_Nonnull metadata);

/// Installs, once per process, the shim's receivers of the Swift concurrency runtime's
/// happens-before marks (the `_swift_tsan_acquire` and `_swift_tsan_release` hooks the runtime
/// gives ThreadSanitizer), which pass each mark on to the hook set before (ThreadSanitizer's, in
/// a sanitized process) and, on a thread of a run that checks plain accesses, to the engine
/// (`BGSIM_SYNC_RUNTIME_*`). Returns 1 when the runtime has the hooks, else 0.
int bgsim_concurrency_edges_install(void);

/// The Swift task running on the calling thread (`swift_task_getCurrent`) and the actor it runs
/// on (the identity of `swift_task_getCurrentExecutor`: an actor, the main actor, or NULL for the
/// generic executor); both NULL outside a task, or where the runtime lacks them.
void bgsim_current_task(void *_Nullable *_Nonnull task, void *_Nullable *_Nonnull actor);

#ifdef __cplusplus
}
#endif

#endif
