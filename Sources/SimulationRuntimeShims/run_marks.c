// The run mark (see shims_run_marks.h): which run the calling OS thread is executing a job of,
// and the tables set with it (the run's plain-locks table, plain_mutexes.c, and its plain-access
// table, plain_accesses.c), thread-local variables every shim reads, so a thread outside every
// run pays one load. Also the calling thread's flag that its dispatch semaphore and group calls
// are the engine's own baton between OS-thread carriers, never plain waits (plain_waits.c). On
// glibc a thread given a plain-locks table is noted as one of its run's carriers
// (swift_mutexes.c): a Swift `Mutex` names its owner by kernel thread id.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>

BGSIM_TLS void *bgsim_run_mark_tls;
BGSIM_TLS void *bgsim_run_locks_tls;
BGSIM_TLS int bgsim_engine_waits_tls;

int bgsim_engine_waits_set(int engine) {
    int previous = bgsim_engine_waits_tls;
    bgsim_engine_waits_tls = engine;
    return previous;
}

void *bgsim_run_mark_get(void) { return bgsim_run_mark_tls; }

BGSIM_TLS void *bgsim_modified_tls;

void bgsim_thread_marks_exchange(bgsim_thread_marks *marks) {
    bgsim_thread_marks previous = {bgsim_run_mark_tls, bgsim_run_locks_tls, bgsim_run_accesses_tls};
    bgsim_modified_tls = NULL;  // an access of what ran before on this thread names no lock of this run
    bgsim_run_mark_tls = marks->mark;
    bgsim_run_locks_tls = marks->locks;
    bgsim_run_accesses_tls = marks->accesses;
#if defined(__GLIBC__)
    if (marks->locks != NULL) bgsim_note_carrier(marks->locks);  // a Swift Mutex names its owner by kernel thread id
#endif
    *marks = previous;
}
