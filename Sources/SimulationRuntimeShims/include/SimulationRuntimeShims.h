// SimulationRuntimeShims: the C-level pieces that let a run own the process's view of time and
// of Swift concurrency. See DeterministicSimulation's "Async Under Simulation" article.
//
// The umbrella header of module `SimulationRuntimeShims` (SwiftPM takes the header named after
// the target): it includes every header beside it, one per topic, each with its declarations and
// what they are for:
// - shims_run_marks.h: the run mark, which run the calling OS thread is executing a job of.
// - shims_clocks.h: virtual clocks (Linux): the process's clocks on a run's virtual time.
// - shims_real_dispatch.h: real Dispatch inside a run (Linux), handed to the engine.
// - shims_foundation_singletons.h: Foundation's process-wide singletons, one per simulated process.
// - shims_plain_locks.h: plain locks and waits inside a run (Linux, glibc): mutexes, semaphores,
//   groups, read-write locks, condition variables, sleeps and Swift's `Mutex`.
// - shims_plain_accesses.h: plain accesses inside a run (Linux, glibc, 64-bit), for data races.
// - shims_thread_samples.h: where a thread is, for the hang watchdog.
// - shims_deterministic_hashing.h: Swift's hashing made deterministic.
// Nothing to declare for the last piece, process executors (process_executors.c): a load-time
// constructor calls the engine's `simulation_install_process_executors` (a weak reference: nothing
// happens in a binary without the engine), so Swift's main and default executors are the engine's
// before any task exists.
#ifndef SIMULATION_RUNTIME_SHIMS_H
#define SIMULATION_RUNTIME_SHIMS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "shims_run_marks.h"
#include "shims_clocks.h"
#include "shims_real_dispatch.h"
#include "shims_foundation_singletons.h"
#include "shims_plain_locks.h"
#include "shims_plain_accesses.h"
#include "shims_thread_samples.h"
#include "shims_deterministic_hashing.h"

#endif
