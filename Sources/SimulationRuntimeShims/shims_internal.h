// What the shim's C files share and the engine does not see (not in include/).
#ifndef SIMULATION_RUNTIME_SHIMS_INTERNAL_H
#define SIMULATION_RUNTIME_SHIMS_INTERNAL_H

#include "SimulationRuntimeShims.h"

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/// Where a call a shim lets through goes (symbol_lookup.c): a sanitizer's interceptor of `name`
/// when the process has one, else the next definition after this binary's. `slot` caches it.
void *bgsim_next_symbol(void **slot, const char *name);

/// The process's definition of `name` (`dlsym(RTLD_DEFAULT)`), cached in `slot`; NULL when no
/// loaded library has it (symbol_lookup.c).
void *bgsim_default_symbol(void **slot, const char *name);

/// The code span [`*start`, `*end`) of the function the process defines as `name` (by its
/// symbol's size): 1, or 0 with both left 0 when it is not found (symbol_lookup.c; Linux).
int bgsim_symbol_span(const char *name, uintptr_t *start, uintptr_t *end) __attribute__((visibility("hidden")));

/// Declares `next_<name>`, the definition a shim of `name` calls to let a call through.
#define BGSIM_NEXT(name, type) \
    static void *slot_##name; \
    type next_##name = (type)bgsim_next_symbol(&slot_##name, #name)

/// The span of executable code of the loaded object (the main program or a library) that holds
/// the address `inside`: with `*start` and `*end` set, 1 for a library, 2 for the main program;
/// 0 when no loaded object holds it (code_ranges.c).
int bgsim_code_range(const void *inside, uintptr_t *start, uintptr_t *end) __attribute__((visibility("hidden")));

/// Reads the word at `address` of this process without faulting (`process_vm_readv`): 1 with
/// `*word` set, 0 where nothing is mapped (app_code.c; Linux with glibc, 64-bit).
int bgsim_read_word(uintptr_t address, uintptr_t *word) __attribute__((visibility("hidden")));

/// Whether the mangled Swift name `name` (NULL: no) belongs to a module of the app, not the
/// engine's (app_code.c; 0 where plain accesses are not built).
int bgsim_app_symbol(const char *name) __attribute__((visibility("hidden")));

/// A dispatch timeout (`dispatch_time_t`) as a virtual instant in microseconds (-1: forever)
/// (virtual_clocks.c).
int64_t bgsim_virtual_deadline(uint64_t timeout);

/// After a `dispatch_group_leave` on a thread with a run mark: tells the real-Dispatch observer,
/// whose `dispatch_group_notify` work may be due (dispatch_calls.c).
void bgsim_real_dispatch_group_left(void *group);

/// Hands `call` (its work, `source`, schedule already set) to the real-Dispatch observer as a
/// call on the main queue, when the calling thread is in a run: 1 when the run took it
/// (dispatch_calls.c; for the run-loop calls of run_loop_timers.c).
struct bgsim_dispatch_call;
int bgsim_real_dispatch_hand_over_main(const char *function, int32_t operation, struct bgsim_dispatch_call *call);

/// A wall-clock instant (seconds since 1970) as a virtual instant in microseconds since the
/// run began, never before 0; -1 for one no run reaches (`Date.distantFuture`) (virtual_clocks.c).
int64_t bgsim_virtual_instant_from_wall(double secondsSince1970);

/// The model of the shim's thread-local variables: on Linux "initial-exec", one load from the
/// thread pointer (the shim is in the executable, or a library loaded with it), so a check of one
/// is no call and the shims' fast paths save no registers.
#if defined(__linux__)
#define BGSIM_TLS __thread __attribute__((tls_model("initial-exec")))
#else
#define BGSIM_TLS __thread
#endif

/// The calling thread's plain-access table (plain_accesses.c): NULL outside a run that checks
/// plain accesses.
extern BGSIM_TLS void *bgsim_run_accesses_tls __attribute__((visibility("hidden")));

/// The calling thread's run mark (NULL outside every run) and its run's plain-locks table (NULL:
/// none; see `bgsim_plain_locks`), set with the plain-access table (`bgsim_thread_marks_exchange`),
/// and whether the thread's dispatch semaphore and group calls are the engine's own
/// (`bgsim_engine_waits_set`) (run_marks.c).
extern BGSIM_TLS void *bgsim_run_mark_tls __attribute__((visibility("hidden")));
extern BGSIM_TLS void *bgsim_run_locks_tls __attribute__((visibility("hidden")));
extern BGSIM_TLS int bgsim_engine_waits_tls __attribute__((visibility("hidden")));

/// `bgsim_plain_sync` past its first check.
void bgsim_plain_sync_slow(const void *object, int how) __attribute__((visibility("hidden")));

/// A real lock, semaphore or group the calling thread took (`how` `BGSIM_SYNC_ACQUIRE`) or gave
/// back (`BGSIM_SYNC_RELEASE`), or a mark of the concurrency runtime (`BGSIM_SYNC_RUNTIME_*`):
/// an edge of the run's happens-before for plain accesses, when the thread's run checks them
/// (plain_accesses.c; called by plain_mutexes.c, plain_waits.c and concurrency_edges.c). One
/// thread-local load otherwise.
static inline void bgsim_plain_sync(const void *object, int how) {
    if (__builtin_expect(bgsim_run_accesses_tls != NULL, 0)) bgsim_plain_sync_slow(object, how);
}

/// `bgsim_plain_mutex_sync` past its first check (app_code.c: whose code the caller is).
void bgsim_plain_mutex_sync_slow(const void *mutex, int how, const void *caller) __attribute__((visibility("hidden")));

/// Tells the engine about the iterations of a `dispatch_apply` the calling thread runs (`how`:
/// `BGSIM_SYNC_ITERATIONS_BEGIN`, `_ITERATION`, `_ITERATIONS_END`; `value` the count or the
/// index), when the thread's run checks plain accesses (tracked or not yet).
void bgsim_plain_iterations(int how, size_t value) __attribute__((visibility("hidden")));

/// A pthread mutex taken or given back, called from `caller` (the return address of the
/// `pthread_mutex_*` call): an edge like `bgsim_plain_sync`'s, unless the caller is the Swift
/// runtime itself. The runtime locks its metadata and conformance caches only on a miss, so
/// whether a run takes those locks depends on what the process did before it (a cast or a
/// generic type first used by an earlier run); as edges they would hide a race in the first
/// run of a process and show it in the next, and a finding would not replay in a fresh process.
static inline void bgsim_plain_mutex_sync(const void *mutex, int how, const void *caller) {
    if (__builtin_expect(bgsim_run_accesses_tls != NULL, 0)) bgsim_plain_mutex_sync_slow(mutex, how, caller);
}

/// The virtual time of the calling thread's run, in microseconds, or -1 when the thread is not
/// in a run (or nothing is registered) (virtual_clocks.c).
int64_t bgsim_virtual_microseconds(void) __attribute__((visibility("hidden")));

/// Whether `clock` measures elapsed or wall time (virtualised) rather than CPU time (real)
/// (virtual_clocks.c; Linux).
int bgsim_is_time_clock(clockid_t clock) __attribute__((visibility("hidden")));

/// An absolute time on `clock` as a virtual instant in microseconds (rounded up: never early)
/// (virtual_clocks.c; Linux).
int64_t bgsim_virtual_instant(clockid_t clock, const struct timespec *time) __attribute__((visibility("hidden")));

/// The engine's side of plain locks and waits, as registered (`bgsim_plain_locks_register`,
/// plain_mutexes.c): for the mutexes there, Swift's `Mutex` (swift_mutexes.c), semaphores,
/// groups and read-write locks (plain_waits.c), sleeps (plain_sleeps.c) and condition variables
/// (plain_conditions.c). Linux with glibc.
extern bgsim_mutex_wait_fn bgsim_plain_mutex_wait __attribute__((visibility("hidden")));
extern bgsim_mutex_released_fn bgsim_plain_mutex_released __attribute__((visibility("hidden")));
extern bgsim_object_wait_fn bgsim_plain_object_wait __attribute__((visibility("hidden")));
extern bgsim_object_signalled_one_fn bgsim_plain_object_signalled_one __attribute__((visibility("hidden")));

/// The calling thread's run table, with `*mark` its run mark, when it is marked, its run has
/// simulated threads and the engine registered its side; else NULL. Thread-local reads only
/// (plain_mutexes.c).
bgsim_plain_locks *bgsim_plain_locks_get(void **mark) __attribute__((visibility("hidden")));

/// The entry of `mutex` in `locks` (held, or reserved for its waiters), or NULL (plain_mutexes.c).
bgsim_held_mutex *bgsim_held_entry(bgsim_plain_locks *locks, void *mutex) __attribute__((visibility("hidden")));

/// Records the calling OS thread as a carrier of the run whose table `locks` is: a Swift `Mutex`
/// names its owner by kernel thread id (swift_mutexes.c; called when a thread's mark is set with
/// a table, run_marks.c). Linux with glibc.
void bgsim_note_carrier(void *locks) __attribute__((visibility("hidden")));

/// The engine's observer of real Dispatch calls inside runs (`bgsim_real_dispatch_register`,
/// dispatch_calls.c), for the other real-Dispatch shims. Linux.
extern bgsim_real_dispatch_fn bgsim_real_dispatch_observer __attribute__((visibility("hidden")));

/// Hands `call` to the engine, its label, queue and queue kind set from `queue`, when the calling
/// thread is in a run: 1 when the run took it (dispatch_calls.c).
int bgsim_dispatch_hand_over(void *queue, const char *function, int32_t operation, int32_t barrier,
                             bgsim_dispatch_call *call) __attribute__((visibility("hidden")));

/// Dispatch's main queue (dispatch_queues.c, as are the four below).
void *bgsim_main_queue(void) __attribute__((visibility("hidden")));

/// The key (its address) of the queue-specific value that names the target of a queue the process
/// made.
extern char bgsim_dispatch_target_key __attribute__((visibility("hidden")));

/// Whether `queue` is one of the global (root) queues.
int bgsim_is_global_queue(void *queue) __attribute__((visibility("hidden")));

/// Whether `queue` is a concurrent queue the process made.
int bgsim_is_concurrent_queue(void *queue) __attribute__((visibility("hidden")));

/// The queue that runs `queue`'s work, with its kind (`BGSIM_QUEUE_*`) in `*kind`.
void *bgsim_resolve_queue(void *queue, int32_t *kind) __attribute__((visibility("hidden")));

/// Stops the process as Dispatch does when its client breaks its contract: its message (with
/// `label`, when not empty) on stderr, then a trap (dispatch_sources.c).
__attribute__((noreturn)) void bgsim_dispatch_client_crash(const char *message, const char *label)
    __attribute__((visibility("hidden")));

/// The engine's receiver of plain accesses, as registered (plain_accesses.c).
extern bgsim_plain_access_fn bgsim_plain_access_observer __attribute__((visibility("hidden")));

/// The engine's and the toolchain's modules, whose code is never app code: the first
/// `bgsim_excluded_module_count` names (not NUL-terminated) and their lengths (plain_accesses.c,
/// set once at registration; read by app_code.c).
extern const char *bgsim_excluded_modules[] __attribute__((visibility("hidden")));
extern size_t bgsim_excluded_module_lengths[] __attribute__((visibility("hidden")));
extern int bgsim_excluded_module_count __attribute__((visibility("hidden")));

/// A cache of a small answer (1, 2 or 3) per code address, shared by the threads of parallel
/// runs without a lock: `1 << bits` words, each the address shifted left by two with the answer in
/// the low bits, written whole; open addressing with `BGSIM_ADDRESS_PROBES` probes from the
/// address's hash. A full neighbourhood drops the answer (it is asked again next time). Used by
/// app_code.c (is a call site app code) and app_lock_points.c (what a lock call's caller is).
#define BGSIM_ADDRESS_PROBES 8

static inline size_t bgsim_address_home(uintptr_t address, unsigned bits) {
    return (size_t)((address * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/// The answer cached for `address` in `slots` (`1 << bits` words), or 0.
static inline int bgsim_address_cache_find(uintptr_t *slots, unsigned bits, uintptr_t address) {
    size_t mask = ((size_t)1 << bits) - 1, home = bgsim_address_home(address, bits);
    for (size_t probe = 0; probe < BGSIM_ADDRESS_PROBES; probe++) {
        uintptr_t entry = __atomic_load_n(&slots[(home + probe) & mask], __ATOMIC_RELAXED);
        if (entry == 0) return 0;
        if (entry >> 2 == address) return (int)(entry & 3);
    }
    return 0;
}

/// Caches `answer` (1, 2 or 3) for `address` in `slots` (`1 << bits` words).
static inline void bgsim_address_cache_put(uintptr_t *slots, unsigned bits, uintptr_t address, int answer) {
    size_t mask = ((size_t)1 << bits) - 1, home = bgsim_address_home(address, bits);
    uintptr_t entry = address << 2 | (uintptr_t)answer;
    for (size_t probe = 0; probe < BGSIM_ADDRESS_PROBES; probe++) {
        uintptr_t expected = 0;
        if (__atomic_compare_exchange_n(&slots[(home + probe) & mask], &expected, entry, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) return;
    }
}

/// Whether the call site `pc` (a return address) is app code, cached by address (app_code.c).
int bgsim_is_app_site(const void *pc) __attribute__((visibility("hidden")));

/// Whether the calling thread's run checks plain accesses now (the engine is not running a
/// callback of the shim on it) (plain_accesses.c).
int bgsim_checks_plain_accesses(void) __attribute__((visibility("hidden")));

/// The memory of the last modifying access app code began on the calling thread in a run that
/// checks plain accesses (set by plain_accesses.c, cleared when a thread's marks change and when
/// a lock point reads it; defined in run_marks.c): a lock passed as `&self.mutex` is under one for
/// the call.
extern BGSIM_TLS void *bgsim_modified_tls __attribute__((visibility("hidden")));

/// Before a simulated thread takes a free mutex, or lets go of one it holds: when app code asked
/// for it (`caller`, the lock function's return address, or up the frame-pointer chain from
/// `frame`, the lock function's own frame, through Foundation's forwarding code), the engine's
/// scheduling point for the run of `mark`, and 1; else 0 (app_lock_points.c). Never while the
/// `lock` itself is under the access Swift began to pass it (`pthread_mutex_lock(&self.mutex)`):
/// the simulated threads of a run share one exclusivity access set, so another thread passing it
/// meanwhile would trap, where on a device each thread has its own.
int bgsim_app_lock_point(void *mark, const void *lock, const void *caller, const void *frame)
    __attribute__((visibility("hidden")));

/// Before a simulated thread takes a free mutex: when `caller` (the lock's return address) is in
/// one of Foundation's polling loops, the engine's poll point for the run of `mark`, and 1; else 0
/// (foundation_polls.c).
int bgsim_foundation_poll(void *mark, const void *caller) __attribute__((visibility("hidden")));

/// The calling thread's calibration phase of app lock points (app_lock_points.c).
extern BGSIM_TLS int32_t bgsim_lock_calibration_tls __attribute__((visibility("hidden")));

/// During a calibration, notes `caller` (a return address of `pthread_mutex_lock`) when it is
/// Foundation's (app_lock_points.c).
void bgsim_app_lock_points_note(const void *caller) __attribute__((visibility("hidden")));

/// Declares `name`, the calling function's return address, read in the shim function's own frame
/// on every path. An optimized build moves a rarely taken path into a separate cold function
/// (`….cold.1`), and a plain `__builtin_return_address(0)` whose value only that path uses is
/// sunk into it, where it reads the cold function's own return address, an address in the shim:
/// `pthread_rwlock_tryrdlock` and `_trywrlock` did (so a try lock of the Swift runtime's did not
/// count as the runtime's), and so did `pthread_mutex_unlock` once the shims were split into
/// files (the runtime's unlocks of its metadata cache then reached the engine, which took that
/// lock again inside: DispatchMisuseCrashTests crashed in release). The empty volatile asm, which
/// runs on every path, makes the read happen here.
#define BGSIM_CALLER(name) \
    void *name = __builtin_return_address(0); \
    __asm__ volatile("" : "+r"(name))

#endif
