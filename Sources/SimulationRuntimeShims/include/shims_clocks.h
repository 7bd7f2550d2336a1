// Virtual clocks (Linux; virtual_clocks.c): this target defines `clock_gettime`, `gettimeofday`
// and `time`. On a thread with a run mark they answer the run's virtual time (through the callback
// the engine registers); everywhere else they call the C library's own functions. So `Date()`,
// `ContinuousClock.now`, `SuspendingClock.now` and `Task.sleep` deadlines read virtual time inside
// a run, with no change to the code that reads them. Sleeps on a run's threads wait on the
// virtual clock (plain_sleeps.c). Part of SimulationRuntimeShims.h, the module's umbrella header.
#ifndef SIMULATION_RUNTIME_SHIMS_CLOCKS_H
#define SIMULATION_RUNTIME_SHIMS_CLOCKS_H

#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Inside a run the simulated device has been up this long when the run begins: monotonic and
/// boot-time clocks (`ContinuousClock`, `SuspendingClock`, `DispatchTime`) read it plus the run's
/// virtual time. Never zero, as on a device: libdispatch reads an uptime of 0 as "forever"
/// (`DispatchTime.now()` at 0 overflows to `DISPATCH_TIME_FOREVER`, and `.now() + 5` with it).
#define BGSIM_VIRTUAL_UPTIME_AT_START_SECONDS 3600

/// The virtual time of the run `mark` names, in microseconds since the run began.
typedef int64_t (*bgsim_virtual_now_fn)(void *_Nonnull mark);

/// Registers how to read a run's virtual time and the wall-clock epoch of virtual time zero
/// (seconds since 1970). Called once per process by the engine; later calls replace both.
void bgsim_virtual_clocks_register(bgsim_virtual_now_fn _Nonnull now, int64_t epochSeconds);

/// Tells the run `mark` that app code slept `micros` microseconds on one of its threads where no
/// simulated thread can wait (the loop level: a run on one thread, the teardown's last jobs):
/// the sleep returns at once, and the run's clocks read that much later there from now on, so a
/// loop that sleeps until a clock reading passes a deadline (Foundation's `Thread.sleep`) ends.
typedef void (*bgsim_loop_sleep_fn)(void *_Nonnull mark, int64_t micros);

/// Registers the engine's side of loop-level sleeps (``bgsim_loop_sleep_fn``); until then such
/// a sleep is a real one.
void bgsim_loop_sleep_register(bgsim_loop_sleep_fn _Nonnull slept);

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
