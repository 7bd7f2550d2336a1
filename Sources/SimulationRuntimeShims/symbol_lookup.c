// The symbol look-ups the shims share (shims_internal.h): where a call a shim lets through goes
// (`bgsim_next_symbol`: a sanitizer's interceptor of the name when the process has one, else the
// next definition after this binary's, as `RTLD_NEXT` finds it), and the process's own definition
// of a name (`bgsim_default_symbol`, `RTLD_DEFAULT`: Dispatch's and CoreFoundation's symbols). Each
// answer is cached in a slot of the caller's, so a shim looks its name up once. And the code span
// of a function by name (`bgsim_symbol_span`: Foundation's polling loops, its thread starts). Linux.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdio.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

/// Where a call a shim let through goes, resolved once per slot: a sanitizer's interceptor
/// of `name` when the process has one, else the next definition after this binary's (Dispatch's
/// own).
///
/// A `--sanitize=thread` build links ThreadSanitizer's runtime into the main binary, and it
/// intercepts `dispatch_async` and friends there to record the happens-before edge from the
/// caller to the block. The shims' definitions, also in the main binary, take the name
/// instead, and `RTLD_NEXT` skips the interceptor: every hand-over through Dispatch then looked
/// like a race (a CI run reported one on an object created before `DispatchQueue.async` and used
/// in the block). Sanitizers export each interceptor as `__interceptor_<name>`, and it calls
/// the library's own definition itself, so the chain is the shim, the sanitizer, Dispatch.
void *bgsim_next_symbol(void **slot, const char *name) {
    void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (function == NULL) {
        char interceptor[64];
        snprintf(interceptor, sizeof interceptor, "__interceptor_%s", name);
        function = dlsym(RTLD_DEFAULT, interceptor);
        if (function == NULL) function = dlsym(RTLD_NEXT, name);
        __atomic_store_n(slot, function, __ATOMIC_RELEASE);
    }
    return function;
}

void *bgsim_default_symbol(void **slot, const char *name) {
    void *symbol = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (symbol == NULL) {
        symbol = dlsym(RTLD_DEFAULT, name);
        __atomic_store_n(slot, symbol, __ATOMIC_RELEASE);
    }
    return symbol;
}

int bgsim_symbol_span(const char *name, uintptr_t *start, uintptr_t *end) {
    void *function = dlsym(RTLD_DEFAULT, name);
    Dl_info info;
    const ElfW(Sym) *symbol = NULL;
    if (function == NULL || dladdr1(function, &info, (void **)&symbol, RTLD_DL_SYMENT) == 0 || symbol == NULL ||
        symbol->st_size == 0)
        return 0;
    *start = (uintptr_t)function;
    *end = (uintptr_t)function + symbol->st_size;
    return 1;
}

#endif
