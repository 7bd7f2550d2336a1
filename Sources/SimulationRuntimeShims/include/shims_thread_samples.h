// Where a thread is, for the hang watchdog (thread_samples.c).
// Part of SimulationRuntimeShims.h, the module's umbrella header.
#ifndef SIMULATION_RUNTIME_SHIMS_THREAD_SAMPLES_H
#define SIMULATION_RUNTIME_SHIMS_THREAD_SAMPLES_H

#include <pthread.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Where `thread`, a thread of this process, is now (thread_samples.c; Linux with glibc on x86-64
/// and arm64, elsewhere 0): stops it for a moment with a real-time signal of the shim's own
/// (`SIGRTMAX - 3`), whose handler copies its program counter, frame pointer and stack pointer,
/// then follows its frame-pointer chain from the calling thread, reading each word with
/// `process_vm_readv` (an unmapped word ends the walk, never the process). Writes the program
/// counter, then each caller's return address less one (inside its call), to `frames`; returns
/// how many, 0 when the thread did not take the signal within 100 ms. For the hang watchdog,
/// which samples a run that made no progress; one sample at a time in the process. Code built
/// without frame pointers (C libraries) may end the chain early. The thread must have called
/// `bgsim_sample_thread_prepare` (Dispatch's worker threads, and the threads they start, block
/// every signal a handler could take).
int bgsim_sample_thread(pthread_t thread, uintptr_t *_Nonnull frames, int capacity);

/// Lets `bgsim_sample_thread` sample the calling thread: unblocks its signal there.
void bgsim_sample_thread_prepare(void);

#ifdef __cplusplus
}
#endif

#endif
