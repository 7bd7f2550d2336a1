// SimulationFibers: the user-space stack switch that carries simulated threads (the engine's
// one piece of assembly). See the ControlledConcurrency article ("Fibers") in the
// DeterministicSimulation catalog for why it exists and what it may and may not do.
//
// Contract:
// - A fiber is a stack of its own plus the stack pointer saved when it last switched away.
//   `bgsim_fiber_prepare` lays out a new stack so that the first switch to it calls
//   `entry(argument)` on that stack; `entry` must never return (it switches away for good).
// - `bgsim_fiber_switch(save, next)` saves the caller's callee-saved registers and floating-point
//   control state on the caller's stack, stores the stack pointer in `*save`, and continues the
//   fiber whose saved stack pointer is `next`. It returns when some fiber switches back to the
//   stack pointer stored in `*save`.
// - Everything runs on one OS thread: no signal mask, no thread-local storage, no sanitizer
//   state is switched. The Swift side uses fibers only where that is sound (no sanitizer, no
//   Swift concurrency job suspended mid-run) and falls back to OS threads elsewhere.
#ifndef SIMULATION_FIBERS_H
#define SIMULATION_FIBERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when this build can switch stacks in user space (x86-64 Linux, arm64 Linux, arm64 Darwin;
/// no sanitizer); 0 otherwise, and then the two functions below must not be called.
int bgsim_fibers_supported(void);

/// Lays out a new fiber at the top of `stack_top` (the stack's highest address, exclusive) so that
/// the first `bgsim_fiber_switch` to the returned stack pointer calls `entry(argument)` there.
void *bgsim_fiber_prepare(void *stack_top, void (*entry)(void *), void *argument);

/// Saves the calling fiber's stack pointer in `*save` and continues the fiber at `next`.
void bgsim_fiber_switch(void **save, void *next);

#ifdef __cplusplus
}
#endif

#endif
