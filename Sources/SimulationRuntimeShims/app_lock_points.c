// App code's lock acquisitions as scheduling points (shims_plain_locks.h,
// `bgsim_app_lock_points_register`). On a device another thread may run between any two
// instructions; a run's simulated threads switch only where the engine has a point. A value
// behind a lock-per-access wrapper (`get { lock.withLock { value } }`, the same for `set`) makes
// `count -= 1` a locked read and then a locked write: each access is safe, the decrement is not,
// and two threads that both read before either writes lose an update. So before a simulated
// thread takes a free mutex that app code asked for (plain_mutexes.c; a contended one already
// waits), or a read-write lock either way (plain_waits.c), the engine may run another thread, as
// Loom and Shuttle treat every lock acquisition. Its last release is one too (plain_mutexes.c,
// `unlock_point`), taken while the thread still holds it, so another thread's `trylock` can find
// it busy.
//
// "App code asked for it" is told by the code that called `pthread_mutex_lock`: app code itself
// (a C mutex, or `NSLock.lock()`, which Foundation forwards to the mutex with tail calls, so the
// return address is the app's), or Foundation's forwarding code whose caller, up the frame-pointer
// chain, is app code: `NSLocking.withLock` (by its symbol, generic in Foundation or specialized
// into the executable) and the code an `NSLocking` witness jumps to (no symbol of its own; the
// engine finds it once per process by locking Foundation's lock classes through the protocol
// while this file notes where the mutex calls come from: `bgsim_app_lock_points_calibrate`). A
// lock Foundation, Dispatch or
// the Swift runtime takes for itself (a cache filled on first use, once per process) is no point:
// it would make the schedule depend on what earlier runs of the process did. Only in runs that
// check plain accesses (app code is known there: app_code.c), on a simulated thread, and once per
// lock call. Linux with glibc, 64-bit.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdint.h>

BGSIM_TLS int32_t bgsim_lock_calibration_tls;

#if defined(__linux__) && defined(__GLIBC__) && defined(__LP64__)
#include <dlfcn.h>
#include <string.h>

static bgsim_app_lock_point_fn lock_point;

void bgsim_app_lock_points_register(bgsim_app_lock_point_fn point) {
    __atomic_store_n(&lock_point, point, __ATOMIC_RELEASE);
}

/// The return addresses in Foundation's code of its lock calls through `NSLocking`, as the
/// calibration saw them.
#define FORWARDING_SITES 16
static uintptr_t forwarding_sites[FORWARDING_SITES];
static int forwarding_site_count;
/// The executable code of the object that holds Foundation's `NSLock.lock`.
static uintptr_t foundation_start, foundation_end;

void bgsim_app_lock_points_calibrate(int32_t phase) {
    if (phase == BGSIM_LOCK_CALIBRATION_RECORDING && foundation_end == 0) {
        void *lock = dlsym(RTLD_DEFAULT, "$s10Foundation6NSLockC4lockyyF");
        if (lock == NULL || bgsim_code_range(lock, &foundation_start, &foundation_end) == 0) return;
    }
    bgsim_lock_calibration_tls = phase;
}

void bgsim_app_lock_points_note(const void *caller) {
    uintptr_t pc = (uintptr_t)caller;
    if (bgsim_lock_calibration_tls != BGSIM_LOCK_CALIBRATION_RECORDING || pc < foundation_start || pc >= foundation_end)
        return;
    for (int index = 0; index < forwarding_site_count; index++) {
        if (forwarding_sites[index] == pc) return;
    }
    if (forwarding_site_count < FORWARDING_SITES) forwarding_sites[forwarding_site_count++] = pc;
}

static int is_forwarding_site(uintptr_t pc) {
    for (int index = 0; index < forwarding_site_count; index++) {
        if (forwarding_sites[index] == pc) return 1;
    }
    return 0;
}

/// Whether the mangled name is Foundation's code between an app's lock call and the mutex:
/// `NSLocking.withLock` (generic, or specialized into the executable) or a `lock()` method or its
/// protocol witness (which Foundation builds as tail calls, and a build may not).
static int forwards_lock(const char *name) {
    static const char foundation[] = "$s10Foundation";
    if (name == NULL || strncmp(name, foundation, sizeof foundation - 1) != 0) return 0;
    return strstr(name, "8withLock") != NULL || strstr(name, "4lockyyF") != NULL;
}

enum { SITE_APP = 1, SITE_FORWARDS = 2, SITE_OTHER = 3 };

/// What the code at return address `pc` is, for a lock call: app code, Foundation's forwarding
/// code, or other code, cached by address.
#define LOCK_SITE_CACHE_BITS 12
static uintptr_t lock_site_cache[1 << LOCK_SITE_CACHE_BITS];

static int lock_site(uintptr_t pc) {
    int kind = bgsim_address_cache_find(lock_site_cache, LOCK_SITE_CACHE_BITS, pc);
    if (kind != 0) return kind;
    kind = SITE_OTHER;
    if (bgsim_is_app_site((const void *)pc)) {
        kind = SITE_APP;
    } else {
        const char *name = bgsim_function_symbol((const void *)pc);
        Dl_info info;
        if (name == NULL && dladdr((void *)pc, &info) != 0) name = info.dli_sname;
        if (forwards_lock(name) || is_forwarding_site(pc)) kind = SITE_FORWARDS;
    }
    bgsim_address_cache_put(lock_site_cache, LOCK_SITE_CACHE_BITS, pc, kind);
    return kind;
}

/// How many frames of Foundation's forwarding code are looked through.
#define FORWARDING_FRAMES 3

int bgsim_app_lock_point(void *mark, const void *lock, const void *caller, const void *frame) {
    bgsim_app_lock_point_fn point = __atomic_load_n(&lock_point, __ATOMIC_ACQUIRE);
    // The access Swift began to pass `lock` is the last one begun: read once, then forgotten, so
    // an earlier access at a reused address never names a later lock.
    const void *passed = bgsim_modified_tls;
    bgsim_modified_tls = NULL;
    if (point == NULL || lock == passed || !bgsim_checks_plain_accesses()) return 0;
    // `frame` is the lock function's own frame: its first word is its caller's frame pointer,
    // whose return address is one word above it.
    uintptr_t pc = (uintptr_t)caller, fp = (uintptr_t)frame;
    for (int depth = 0; depth <= FORWARDING_FRAMES; depth++) {
        int kind = lock_site(pc);
        if (kind == SITE_APP) {
            point(mark);
            return 1;
        }
        if (kind != SITE_FORWARDS || depth == FORWARDING_FRAMES) return 0;
        uintptr_t up;
        if (!bgsim_read_word(fp, &up) || up <= fp || !bgsim_read_word(up + sizeof(uintptr_t), &pc) || pc == 0) return 0;
        fp = up;
    }
    return 0;
}

#else

void bgsim_app_lock_points_register(bgsim_app_lock_point_fn point) { (void)point; }

void bgsim_app_lock_points_calibrate(int32_t phase) { (void)phase; }

void bgsim_app_lock_points_note(const void *caller) { (void)caller; }

int bgsim_app_lock_point(void *mark, const void *lock, const void *caller, const void *frame) {
    (void)mark;
    (void)lock;
    (void)caller;
    (void)frame;
    return 0;
}

#endif
