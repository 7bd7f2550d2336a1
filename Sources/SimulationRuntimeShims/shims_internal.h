// What the shim's C files share and the engine does not see (not in include/).
#ifndef SIMULATION_RUNTIME_SHIMS_INTERNAL_H
#define SIMULATION_RUNTIME_SHIMS_INTERNAL_H

#include <stdint.h>

/// Where a call a shim lets through goes (runtime_shims.c): a sanitizer's interceptor of `name`
/// when the process has one, else the next definition after this binary's. `slot` caches it.
void *bgsim_next_symbol(void **slot, const char *name);

/// Declares `next_<name>`, the definition a shim of `name` calls to let a call through.
#define BGSIM_NEXT(name, type) \
    static void *slot_##name; \
    type next_##name = (type)bgsim_next_symbol(&slot_##name, #name)

/// A dispatch timeout (`dispatch_time_t`) as a virtual instant in microseconds (-1: forever).
int64_t bgsim_virtual_deadline(uint64_t timeout);

/// After a `dispatch_group_leave` on a thread with a run mark: tells the real-Dispatch observer,
/// whose `dispatch_group_notify` work may be due (real_dispatch.c).
void bgsim_real_dispatch_group_left(void *group);

#endif
