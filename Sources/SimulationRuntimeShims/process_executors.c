// Process executors: a load-time constructor calls the engine's
// `simulation_install_process_executors` (a weak reference: nothing happens in a binary without the
// engine), so Swift's main and default executors are the engine's before any task exists. Its
// priority (102) runs it after the shims' own first constructors (priority 101: virtual_clocks.c's
// look-up of the C library's `clock_gettime`, deterministic_hashing.c's seed).

#include <stddef.h>

// The engine's installer, if the engine is linked into this binary (a weak reference).
extern void simulation_install_process_executors(void) __attribute__((weak));

// After the C library's and the Swift runtime's own initialisers (they belong to shared
// libraries this binary depends on, which run first), before main and before any thread of the
// program exists.
__attribute__((constructor(102))) static void install_process_executors(void) {
    if (simulation_install_process_executors != NULL) simulation_install_process_executors();
}
