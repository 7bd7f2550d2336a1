// Foundation's process-wide singletons inside a run (foundation_singletons.c). 
// Part of SimulationRuntimeShims.h, the module's umbrella header.
#ifndef SIMULATION_RUNTIME_SHIMS_FOUNDATION_SINGLETONS_H
#define SIMULATION_RUNTIME_SHIMS_FOUNDATION_SINGLETONS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Foundation's process-wide singletons a run gives its own of (foundation_singletons.c):
/// `NotificationCenter.default` (each simulated process's), `UserDefaults.standard` (the run's
/// device's), `OperationQueue.main` (each simulated process's) and `OperationQueue.current` on
/// the simulated main thread (that process's main queue).
enum {
    BGSIM_SINGLETON_NOTIFICATION_CENTER = 0, BGSIM_SINGLETON_USER_DEFAULTS = 1, BGSIM_SINGLETON_MAIN_OPERATION_QUEUE = 2,
    BGSIM_SINGLETON_CURRENT_OPERATION_QUEUE = 3
};

/// Returns the run `mark`'s object of `kind` (a `BGSIM_SINGLETON_` value) for the calling code's
/// process, retained (+1), or NULL to let Foundation's own getter answer.
typedef void *_Nullable (*bgsim_foundation_singleton_fn)(void *_Nonnull mark, int32_t kind);

/// Registers the engine's provider of per-process singletons (Linux, x86-64 and arm64: this
/// target defines the getter of `NotificationCenter.default`; inside a run it asks the
/// provider). Where the shim is not built Foundation's own objects are used.
void bgsim_foundation_singletons_register(bgsim_foundation_singleton_fn _Nonnull provider);

#ifdef __cplusplus
}
#endif

#endif
