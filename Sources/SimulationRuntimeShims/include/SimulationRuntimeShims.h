// SimulationRuntimeShims: the C-level pieces that let a run own the process's view of time and
// of Swift concurrency. See DeterministicSimulation's "Async Under Simulation" article.
//
// - The run mark: which run (an opaque pointer, the engine's Scheduler) the calling OS thread is
//   executing a job of; a thread-local variable, so reading it costs one TLS load.
// - Virtual clocks (Linux): this target defines `clock_gettime`, `gettimeofday` and `time`. On a
//   thread with a run mark they answer the run's virtual time (through the callback the engine
//   registers); everywhere else they call the C library's own functions. So `Date()`,
//   `ContinuousClock.now`, `SuspendingClock.now` and `Task.sleep` deadlines read virtual time
//   inside a run, with no change to the code that reads them.
// - Real Dispatch inside a run (Linux): `dispatch_async` and friends, called on a marked thread,
//   are reported to the engine and not made (the block would run outside the simulation).
// - Process executors: a load-time constructor calls the engine's
//   `simulation_install_process_executors` (a weak reference: nothing happens in a binary without the
//   engine), so Swift's main and default executors are the engine's before any task exists.
#ifndef SIMULATION_RUNTIME_SHIMS_H
#define SIMULATION_RUNTIME_SHIMS_H

#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The calling thread's run mark (NULL outside every run).
void *_Nullable bgsim_run_mark_get(void);

/// Sets the calling thread's run mark; returns the previous one.
void *_Nullable bgsim_run_mark_set(void *_Nullable mark);

/// The virtual time of the run `mark` names, in microseconds since the run began.
typedef int64_t (*bgsim_virtual_now_fn)(void *_Nonnull mark);

/// Registers how to read a run's virtual time and the wall-clock epoch of virtual time zero
/// (seconds since 1970). Called once per process by the engine; later calls replace both.
void bgsim_virtual_clocks_register(bgsim_virtual_now_fn _Nonnull now, int64_t epochSeconds);

/// Told about each call that sends work to a real Dispatch queue from a thread with a run mark:
/// the mark, the queue's label ("" when it has none) and the function's name. Returns 1 when the
/// run reported the call (the work is then not sent), 0 to let the call through.
typedef int (*bgsim_real_dispatch_fn)(void *_Nonnull mark, const char *_Nonnull label,
                                      const char *_Nonnull function);

/// Registers the observer of real Dispatch calls inside runs (Linux: this target defines
/// `dispatch_async`, `dispatch_async_f`, `dispatch_barrier_async`, `dispatch_after` and
/// `dispatch_after_f`; on a thread with a run mark they tell the observer and, when it reported
/// the call, do not send the work, which would run outside the simulation; otherwise they call
/// Dispatch's own). Where the shim is not built nothing is observed.
void bgsim_real_dispatch_register(bgsim_real_dispatch_fn _Nonnull observer);

/// 1 where this target defines the process's clock functions (Linux), else 0: elsewhere clocks
/// stay real inside runs.
int bgsim_virtual_clocks_supported(void);

/// The C library's `clock_gettime`, never virtual: for the harness's own timing (watchdogs,
/// timeouts), which must stay real on every thread.
int bgsim_real_clock_gettime(clockid_t clock, struct timespec *_Nonnull time);

#ifdef __cplusplus
}
#endif

#endif
