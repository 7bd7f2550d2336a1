// The span of executable code of a loaded object (shims_internal.h, `bgsim_code_range`): the main
// program's or a library's, found with `dl_iterate_phdr` by an address inside it (the main program
// is the first object it reports). The plain-lock shims find the Swift concurrency runtime's code
// with it (plain_mutexes.c), the plain-access checks the Swift runtime's and the test frameworks'
// (app_code.c). Linux with glibc.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <link.h>

struct code_range_query {
    uintptr_t inside, start, end;
    int objects, in_main_program;
};

static int code_range_of_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct code_range_query *query = data;
    int is_main_program = query->objects++ == 0;  // the main program comes first
    uintptr_t start = UINTPTR_MAX, end = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_X) == 0) continue;
        uintptr_t low = info->dlpi_addr + header->p_vaddr, high = low + header->p_memsz;
        if (low < start) start = low;
        if (high > end) end = high;
    }
    if (query->inside < start || query->inside >= end) return 0;
    query->start = start;
    query->end = end;
    query->in_main_program = is_main_program;
    return 1;
}

int bgsim_code_range(const void *inside, uintptr_t *start, uintptr_t *end) {
    struct code_range_query query = {(uintptr_t)inside, 0, 0, 0, 0};
    if (inside == NULL || dl_iterate_phdr(code_range_of_object, &query) == 0) return 0;
    *start = query.start;
    *end = query.end;
    return query.in_main_program ? 2 : 1;
}

#endif
