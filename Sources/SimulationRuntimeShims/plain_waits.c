// Plain waits: a dispatch semaphore or group a simulated thread waits on. The real wait would
// block the run's one OS thread (fibers) or keep its baton, so the signal another simulated
// thread would send could never come. Instead the shim tries without waiting and, when that
// fails, blocks only the simulated thread (in the engine) until a simulated thread of the run
// signals or leaves, or until the timeout's virtual deadline; then it tries again. A signal from
// a thread outside the run is not seen (real threads inside a run are escapes of their own).
//
// This file defines `dispatch_semaphore_create`, `_wait` and `_signal`, `dispatch_group_create`,
// `_wait` and `_leave` (a leave also tells the real-Dispatch observer, dispatch_calls.c), and the
// `pthread_rwlock_*` functions (read-write locks, below). Each made object is new to the run's
// happens-before, and each wait and signal is an edge of it, for the plain-access checks
// (plain_accesses.c). The engine's side is registered in plain_mutexes.c. Linux with glibc.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <pthread.h>

typedef intptr_t (*dispatch_wait_fn)(void *, uint64_t);
typedef intptr_t (*dispatch_signal_fn)(void *);
typedef void (*dispatch_leave_fn)(void *);

/// A wait on `object` through `try_wait` (the library's own wait, called with DISPATCH_TIME_NOW).
static intptr_t plain_wait(void *object, uint64_t timeout, int kind, dispatch_wait_fn try_wait) {
    // The engine's baton first, before the table is read: a carrier waiting for the baton does
    // not hold it, so another thread may be writing the table meanwhile.
    if (bgsim_engine_waits_tls) return try_wait(object, timeout);
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    bgsim_object_wait_fn wait = __atomic_load_n(&bgsim_plain_object_wait, __ATOMIC_ACQUIRE);
    if (locks == NULL || locks->current == 0 || wait == NULL) return try_wait(object, timeout);
    int64_t deadline = bgsim_virtual_deadline(timeout);
    for (;;) {
        intptr_t status = try_wait(object, 0);
        if (status == 0 || timeout == 0) return status;
        locks->objectWaiters++;
        int outcome = wait(mark, object, kind, deadline);
        locks->objectWaiters--;
        if (outcome != 0) return status;  // the deadline passed, or the run gave the wait up
    }
}

/// After a signal or leave on `object`: the run's simulated threads waiting on it try again.
static void plain_signalled(void *object) {
    // The engine's baton: its signal has just handed the run to another thread, which may be
    // writing the table now (a ThreadSanitizer report when the check came after the read).
    if (bgsim_engine_waits_tls) return;
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    if (locks != NULL && locks->objectWaiters > 0) bgsim_plain_mutex_released(mark, object);
}

typedef void *(*dispatch_create_fn)(intptr_t);
typedef void *(*dispatch_group_create_fn)(void);

/// A semaphore or group made: new to the run's happens-before (see `pthread_mutex_init`).
void *dispatch_semaphore_create(intptr_t value) {
    BGSIM_NEXT(dispatch_semaphore_create, dispatch_create_fn);
    void *semaphore = next_dispatch_semaphore_create(value);
    if (semaphore != NULL) bgsim_plain_sync(semaphore, BGSIM_SYNC_NEW);
    return semaphore;
}

void *dispatch_group_create(void) {
    BGSIM_NEXT(dispatch_group_create, dispatch_group_create_fn);
    void *group = next_dispatch_group_create();
    if (group != NULL) bgsim_plain_sync(group, BGSIM_SYNC_NEW);
    return group;
}

intptr_t dispatch_semaphore_wait(void *semaphore, uint64_t timeout) {
    BGSIM_NEXT(dispatch_semaphore_wait, dispatch_wait_fn);
    intptr_t status = plain_wait(semaphore, timeout, BGSIM_PLAIN_WAIT_SEMAPHORE, next_dispatch_semaphore_wait);
    if (status == 0 && !bgsim_engine_waits_tls) bgsim_plain_sync(semaphore, BGSIM_SYNC_ACQUIRE);
    return status;
}

intptr_t dispatch_semaphore_signal(void *semaphore) {
    BGSIM_NEXT(dispatch_semaphore_signal, dispatch_signal_fn);
    if (!bgsim_engine_waits_tls) bgsim_plain_sync(semaphore, BGSIM_SYNC_RELEASE);
    intptr_t woke = next_dispatch_semaphore_signal(semaphore);
    plain_signalled(semaphore);
    return woke;
}

intptr_t dispatch_group_wait(void *group, uint64_t timeout) {
    BGSIM_NEXT(dispatch_group_wait, dispatch_wait_fn);
    intptr_t status = plain_wait(group, timeout, BGSIM_PLAIN_WAIT_GROUP, next_dispatch_group_wait);
    if (status == 0 && !bgsim_engine_waits_tls) bgsim_plain_sync(group, BGSIM_SYNC_ACQUIRE);
    return status;
}

void dispatch_group_leave(void *group) {
    BGSIM_NEXT(dispatch_group_leave, dispatch_leave_fn);
    if (!bgsim_engine_waits_tls) bgsim_plain_sync(group, BGSIM_SYNC_RELEASE);
    next_dispatch_group_leave(group);
    plain_signalled(group);
    bgsim_real_dispatch_group_left(group);
}

// Read-write locks (`pthread_rwlock_t`): a reader-writer cache behind one. A simulated thread
// that takes a lock another simulated thread holds the other way waits as on a plain wait above
// (try, then wait in the engine until a simulated thread of the run unlocks it, then try again);
// outside a run it takes the lock for real. For the data-race detector a lock taken either way
// acquires, and an unlock releases, as a mutex does (so a race between two readers' accesses
// made outside the lock may be hidden, never a reader's against a writer's).
typedef int (*rwlock_fn)(pthread_rwlock_t *);
typedef int (*rwlock_init_fn)(pthread_rwlock_t *, const pthread_rwlockattr_t *);

/// A read-write lock made: new to the run's happens-before (see `pthread_mutex_init`).
int pthread_rwlock_init(pthread_rwlock_t *rwlock, const pthread_rwlockattr_t *attributes) {
    BGSIM_NEXT(pthread_rwlock_init, rwlock_init_fn);
    int status = next_pthread_rwlock_init(rwlock, attributes);
    if (status == 0) bgsim_plain_sync(rwlock, BGSIM_SYNC_NEW);
    return status;
}

/// `plain_wait`'s try for a read lock: a try with timeout 0, the real lock otherwise.
static intptr_t read_lock_wait(void *rwlock, uint64_t timeout) {
    BGSIM_NEXT(pthread_rwlock_tryrdlock, rwlock_fn);
    BGSIM_NEXT(pthread_rwlock_rdlock, rwlock_fn);
    return timeout == 0 ? next_pthread_rwlock_tryrdlock(rwlock) : next_pthread_rwlock_rdlock(rwlock);
}

/// `plain_wait`'s try for a write lock.
static intptr_t write_lock_wait(void *rwlock, uint64_t timeout) {
    BGSIM_NEXT(pthread_rwlock_trywrlock, rwlock_fn);
    BGSIM_NEXT(pthread_rwlock_wrlock, rwlock_fn);
    return timeout == 0 ? next_pthread_rwlock_trywrlock(rwlock) : next_pthread_rwlock_wrlock(rwlock);
}

/// Takes `rwlock` through `wait_fn`: 0, or the lock's error; EDEADLK when the run gave the wait
/// up (a deadlock, or the run is being unwound: the lock is not taken). On a simulated thread,
/// app code's lock is first a point where another thread may run (app_lock_points.c).
static int rwlock_lock(pthread_rwlock_t *rwlock, dispatch_wait_fn wait_fn, const void *caller, const void *frame) {
    void *mark;
    bgsim_plain_locks *locks = bgsim_plain_locks_get(&mark);
    if (locks != NULL && locks->current != 0) bgsim_app_lock_point(mark, rwlock, caller, frame);
    int status = (int)plain_wait(rwlock, ~(uint64_t)0, BGSIM_PLAIN_WAIT_RWLOCK, wait_fn);
    if (status == EBUSY) return EDEADLK;
    if (status == 0 && !bgsim_engine_waits_tls) bgsim_plain_mutex_sync(rwlock, BGSIM_SYNC_ACQUIRE, caller);
    return status;
}

int pthread_rwlock_rdlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    return rwlock_lock(rwlock, read_lock_wait, caller, __builtin_frame_address(0));
}

int pthread_rwlock_wrlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    return rwlock_lock(rwlock, write_lock_wait, caller, __builtin_frame_address(0));
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    int status = (int)read_lock_wait(rwlock, 0);
    if (status == 0) bgsim_plain_mutex_sync(rwlock, BGSIM_SYNC_ACQUIRE, caller);
    return status;
}

int pthread_rwlock_trywrlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    int status = (int)write_lock_wait(rwlock, 0);
    if (status == 0) bgsim_plain_mutex_sync(rwlock, BGSIM_SYNC_ACQUIRE, caller);
    return status;
}

int pthread_rwlock_unlock(pthread_rwlock_t *rwlock) {
    BGSIM_CALLER(caller);
    BGSIM_NEXT(pthread_rwlock_unlock, rwlock_fn);
    bgsim_plain_mutex_sync(rwlock, BGSIM_SYNC_RELEASE, caller);
    int status = next_pthread_rwlock_unlock(rwlock);
    if (status == 0) plain_signalled(rwlock);
    return status;
}

#endif
