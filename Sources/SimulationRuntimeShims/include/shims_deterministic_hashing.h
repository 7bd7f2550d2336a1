// Deterministic hashing (deterministic_hashing.c).
// Part of SimulationRuntimeShims.h, the module's umbrella header.
#ifndef SIMULATION_RUNTIME_SHIMS_DETERMINISTIC_HASHING_H
#define SIMULATION_RUNTIME_SHIMS_DETERMINISTIC_HASHING_H

#ifdef __cplusplus
extern "C" {
#endif

/// Whether Swift hashes deterministically in this process: the per-process seed is zero and a
/// `Set`'s or `Dictionary`'s order does not depend on its address, as under
/// `SWIFT_DETERMINISTIC_HASHING=1`. Every binary that links this target sets it when it loads
/// (deterministic_hashing.c), so app code that iterates a `Set` replays the same way in every
/// run and process.
int bgsim_hashing_is_deterministic(void);

#ifdef __cplusplus
}
#endif

#endif
