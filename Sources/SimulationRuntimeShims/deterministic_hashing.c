// Deterministic hashing (see shims_deterministic_hashing.h, `bgsim_hashing_is_deterministic`).
//
// Swift seeds the hashing of every `Set` and `Dictionary` from a random seed drawn once per
// process and, per table, from the table's own address, so the order app code iterates one in
// (`for id in openTasks { end(id) }`) changes from run to run and from process to process: the
// same seed would not replay. `SWIFT_DETERMINISTIC_HASHING=1` turns both off, but it is read when
// libswiftCore loads, before a test or `bgsim` could set it. So this constructor does what that
// variable does, in the same place the runtime keeps it (`_swift_stdlib_Hashing_parameters`:
// the two seed words and the flag that turns the per-table seed into the table's size), in every
// binary that links the simulator (a test binary, a team's own `bgsim`; never an app, whose core
// does not link this target). It runs after libswiftCore's own initializer and before any Swift
// code of the binary (Swift has no static initializers), so no table was hashed with the old seed.
#include "SimulationRuntimeShims.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

/// The runtime's `_SwiftHashingParameters` (stdlib/public/SwiftShims/swift/shims/GlobalObjects.h).
typedef struct {
    uint64_t seed0;
    uint64_t seed1;
    bool deterministic;
} hashing_parameters;

static hashing_parameters *parameters(void) {
    return (hashing_parameters *)dlsym(RTLD_DEFAULT, "_swift_stdlib_Hashing_parameters");
}

__attribute__((constructor(101))) static void make_hashing_deterministic(void) {
    hashing_parameters *found = parameters();
    if (found == NULL || found->deterministic) return;
    found->seed0 = 0;
    found->seed1 = 0;
    found->deterministic = true;
}

int bgsim_hashing_is_deterministic(void) {
    hashing_parameters *found = parameters();
    return found != NULL && found->deterministic && found->seed0 == 0 && found->seed1 == 0;
}
