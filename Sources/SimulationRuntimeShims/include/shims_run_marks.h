// The run mark (run_marks.c): which run (an opaque pointer, the engine's Scheduler) the calling OS
// thread is executing a job of; a thread-local variable, so reading it costs one TLS load. Set
// with it, the run's tables for plain locks (shims_plain_locks.h) and plain accesses
// (shims_plain_accesses.h). Part of SimulationRuntimeShims.h, the module's umbrella header.
#ifndef SIMULATION_RUNTIME_SHIMS_RUN_MARKS_H
#define SIMULATION_RUNTIME_SHIMS_RUN_MARKS_H

#ifdef __cplusplus
extern "C" {
#endif

/// The calling thread's run mark (NULL outside every run).
void *_Nullable bgsim_run_mark_get(void);

/// A thread's run mark and the tables set with it: the run's plain-locks table (NULL: none; see
/// `bgsim_plain_locks`: the run's when it has simulated threads) and its plain-access table
/// (NULL: none; see `bgsim_plain_accesses`: the run's when it checks plain accesses).
typedef struct bgsim_thread_marks {
    void *_Nullable mark;
    void *_Nullable locks;
    void *_Nullable accesses;
} bgsim_thread_marks;

/// Swaps the calling thread's mark and tables with `marks`: sets them, and leaves the previous
/// ones in `marks` (to restore with a second call). One call for the three.
void bgsim_thread_marks_exchange(bgsim_thread_marks *_Nonnull marks);

/// Sets whether the calling OS thread's dispatch semaphore and group calls are the engine's own
/// (its baton between OS-thread carriers): those are never plain waits. Returns the previous
/// setting (nonzero: the engine's).
int bgsim_engine_waits_set(int engine);

#ifdef __cplusplus
}
#endif

#endif
