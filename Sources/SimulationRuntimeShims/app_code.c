// Which code is the app's, for the plain-access checks (plain_accesses.c, see
// shims_plain_accesses.h) and the hang watchdog (thread_samples.c, `bgsim_is_app_function`).
//
// "App code" is told by the caller's symbol: a Swift function of the main executable whose
// module is not one the engine registered (its own: the harness, the simulator, the core; and the
// toolchain's, whose generic specializations the executable holds too). Library code in shared
// libraries (the standard library, Foundation, Dispatch, XCTest) is never app code; neither is
// code without a Swift symbol (C, a stripped binary). A process with no app code at all (`bgsim`
// itself) never turns the checks on.
//
// The symbols are read once from the main executable's `.symtab` (`bgsim_function_symbol`), and
// with them its Swift class metadata (`bgsim_class_instance_at_or_below`) and the code of the
// Swift runtime and of the test frameworks, whose mutexes are no happens-before edges
// (`bgsim_plain_mutex_sync`). Linux with glibc, 64-bit.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__) && defined(__LP64__)
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static int has_app_code;
static pthread_once_t symbols_once = PTHREAD_ONCE_INIT;
static void load_symbols(void);

int bgsim_plain_accesses_supported(void) {
    // Before registration the engine's modules are not known: nothing could be told apart.
    if (__atomic_load_n(&bgsim_plain_access_observer, __ATOMIC_ACQUIRE) == NULL) return 0;
    pthread_once(&symbols_once, load_symbols);
    return has_app_code;
}

// The main executable's function symbols, sorted by address: read once from its `.symtab` (the
// dynamic symbol table names only what is exported).
typedef struct {
    uintptr_t start;
    uintptr_t end;
    uint32_t name;
} function_symbol;

static function_symbol *symbols;
static size_t symbol_count;
static const char *symbol_names;
/// The addresses of the main executable's Swift class metadata (`$s…CN` symbols), sorted: what a
/// class instance's first word holds (``bgsim_class_instance_at_or_below``).
static uintptr_t *class_metadata;
static size_t class_metadata_count;
static uintptr_t executable_start, executable_end;

static int is_app_symbol(const char *name);

static int main_program(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    uintptr_t *base = data;
    *base = info->dlpi_addr;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_X) == 0) continue;
        uintptr_t start = info->dlpi_addr + header->p_vaddr, end = start + header->p_memsz;
        if (executable_start == 0 || start < executable_start) executable_start = start;
        if (end > executable_end) executable_end = end;
    }
    return 1;  // the first object is the main program
}

static int by_start(const void *left, const void *right) {
    uintptr_t a = ((const function_symbol *)left)->start, b = ((const function_symbol *)right)->start;
    return a < b ? -1 : a > b;
}

static int by_address(const void *left, const void *right) {
    uintptr_t a = *(const uintptr_t *)left, b = *(const uintptr_t *)right;
    return a < b ? -1 : a > b;
}

/// Keeps the addresses of the class metadata symbols among `entries` (`$s…CN`), sorted.
static void keep_class_metadata(const ElfW(Sym) *entries, size_t count, const char *strings, size_t size,
                                uintptr_t base) {
    uintptr_t *kept = malloc((count + 1) * sizeof *kept);
    if (kept == NULL) return;
    size_t used = 0;
    for (size_t entry = 0; entry < count; entry++) {
        const ElfW(Sym) *symbol = &entries[entry];
        if (symbol->st_value == 0 || symbol->st_name >= size) continue;
        const char *name = strings + symbol->st_name;
        size_t length = strlen(name);
        if (length < 5 || name[0] != '$' || name[1] != 's' || strcmp(name + length - 2, "CN") != 0) continue;
        kept[used++] = base + symbol->st_value;
    }
    qsort(kept, used, sizeof *kept, by_address);
    class_metadata = kept;
    class_metadata_count = used;
}

static int is_class_metadata(uintptr_t word) {
    size_t low = 0, high = class_metadata_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (class_metadata[middle] == word) return 1;
        if (class_metadata[middle] < word) low = middle + 1;
        else high = middle;
    }
    return 0;
}

int bgsim_read_word(uintptr_t address, uintptr_t *word) {
    struct iovec local = {word, sizeof *word}, remote = {(void *)address, sizeof *word};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)sizeof *word;
}

const void *bgsim_class_instance_at_or_below(const void *from, size_t reach, const void **metadata) {
    pthread_once(&symbols_once, load_symbols);
    uintptr_t address = (uintptr_t)from & ~(uintptr_t)15;  // a heap object starts 16-byte aligned
    uintptr_t lowest = (uintptr_t)from > reach ? (uintptr_t)from - reach : 0;
    for (; address >= lowest && address != 0; address -= 16) {
        uintptr_t word;
        if (bgsim_read_word(address, &word) && is_class_metadata(word)) {
            *metadata = (const void *)word;
            return (const void *)address;
        }
    }
    return NULL;
}

// The Swift runtime's code (libswiftCore's executable segments): its own mutexes are no edges
// (`bgsim_plain_mutex_sync`). Found once, with the symbols, by an address inside it.
static uintptr_t runtime_start, runtime_end;
// The test frameworks' code (libTesting's, libXCTest's), whose mutexes are no edges either: Swift
// Testing's `swift_willThrow` hook takes a lock at every `throw` in the process, so under it every
// two threads of a run that threw were ordered (a race between them was missed), and each throw
// cost a call into the engine (a loop that swallows a thrown `CancellationError` ran 25% slower).
// No such lock exists in the app on a device.
#define HARNESS_LIBRARIES 2
static uintptr_t harness_start[HARNESS_LIBRARIES], harness_end[HARNESS_LIBRARIES];

static void load_symbols(void) {
    uintptr_t base = 0;
    dl_iterate_phdr(main_program, &base);
    // In the main executable (a statically linked runtime) the range would be the app's own code.
    uintptr_t start, end;
    if (bgsim_code_range(dlsym(RTLD_DEFAULT, "swift_conformsToProtocol"), &start, &end) == 1) {
        runtime_start = start;
        runtime_end = end;
    }
    static const char *const harness_symbols[HARNESS_LIBRARIES] = {
        "swt_abiv0_getEntryPoint",         // Swift Testing's entry point (libTesting)
        "$s6XCTest0A11ErrorDomainSSvau",   // XCTestErrorDomain's addressor (libXCTest)
    };
    for (int index = 0; index < HARNESS_LIBRARIES; index++) {
        if (bgsim_code_range(dlsym(RTLD_DEFAULT, harness_symbols[index]), &start, &end) == 1) {
            harness_start[index] = start;
            harness_end[index] = end;
        }
    }
    int file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (file < 0) return;
    struct stat status;
    void *image = MAP_FAILED;
    if (fstat(file, &status) == 0 && (size_t)status.st_size > sizeof(ElfW(Ehdr))) {
        image = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, file, 0);
    }
    close(file);
    if (image == MAP_FAILED) return;
    const unsigned char *bytes = image;
    size_t length = (size_t)status.st_size;
    const ElfW(Ehdr) *header = image;
    if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64
        || header->e_shoff == 0 || header->e_shoff + (size_t)header->e_shnum * sizeof(ElfW(Shdr)) > length) {
        munmap(image, length);
        return;
    }
    const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(bytes + header->e_shoff);
    for (int index = 0; index < header->e_shnum; index++) {
        const ElfW(Shdr) *table = &sections[index];
        if (table->sh_type != SHT_SYMTAB || table->sh_link >= header->e_shnum) continue;
        const ElfW(Shdr) *names = &sections[table->sh_link];
        if (table->sh_offset + table->sh_size > length || names->sh_offset + names->sh_size > length) break;
        size_t count = table->sh_size / sizeof(ElfW(Sym));
        const ElfW(Sym) *entries = (const ElfW(Sym) *)(bytes + table->sh_offset);
        const char *strings = (const char *)(bytes + names->sh_offset);
        // First whether there is app code at all (`bgsim` itself has none): then nothing is kept.
        for (size_t entry = 0; entry < count && !has_app_code; entry++) {
            const ElfW(Sym) *symbol = &entries[entry];
            if (ELF64_ST_TYPE(symbol->st_info) == STT_FUNC && symbol->st_value != 0 && symbol->st_name < names->sh_size) {
                has_app_code = is_app_symbol(strings + symbol->st_name);
            }
        }
        if (!has_app_code) break;
        function_symbol *kept = malloc((count + 1) * sizeof *kept);
        if (kept == NULL) {
            has_app_code = 0;
            break;
        }
        size_t used = 0;
        for (size_t entry = 0; entry < count; entry++) {
            const ElfW(Sym) *symbol = &entries[entry];
            if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_value == 0 || symbol->st_size == 0
                || symbol->st_name >= names->sh_size) continue;
            kept[used].start = base + symbol->st_value;
            kept[used].end = kept[used].start + symbol->st_size;
            kept[used].name = symbol->st_name;
            used++;
        }
        qsort(kept, used, sizeof *kept, by_start);
        keep_class_metadata(entries, count, strings, names->sh_size, base);
        symbol_names = strings;
        symbols = kept;
        symbol_count = used;
        return;  // the image stays mapped: the names are read from it
    }
    munmap(image, length);
}

const char *bgsim_function_symbol(const void *pc) {
    pthread_once(&symbols_once, load_symbols);
    uintptr_t address = (uintptr_t)pc;
    if (symbols == NULL || address < executable_start || address >= executable_end) return NULL;
    size_t low = 0, high = symbol_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (symbols[middle].start <= address) low = middle + 1;
        else high = middle;
    }
    if (low == 0) return NULL;
    const function_symbol *symbol = &symbols[low - 1];
    return address < symbol->end ? symbol_names + symbol->name : NULL;
}

int bgsim_app_symbol(const char *name) { return is_app_symbol(name); }

/// Whether the mangled Swift name `name` belongs to a module of the app: `$s`, the module's
/// name as a length and its characters, and the module is not one of the engine's.
static int is_app_symbol(const char *name) {
    if (name == NULL || name[0] != '$' || name[1] != 's' || name[2] < '1' || name[2] > '9') return 0;
    size_t length = 0;
    const char *cursor = name + 2;
    while (*cursor >= '0' && *cursor <= '9') length = length * 10 + (size_t)(*cursor++ - '0');
    if (length == 0 || strnlen(cursor, length) < length) return 0;
    for (int index = 0; index < bgsim_excluded_module_count; index++) {
        if (bgsim_excluded_module_lengths[index] == length && memcmp(bgsim_excluded_modules[index], cursor, length) == 0) return 0;
    }
    return 1;
}

// Which call sites are app code, cached by return address (1 app code, 2 not).
#define SITE_CACHE_BITS 14
static uintptr_t site_cache[1 << SITE_CACHE_BITS];

int bgsim_is_app_site(const void *pc) {
    uintptr_t address = (uintptr_t)pc;
    int cached = bgsim_address_cache_find(site_cache, SITE_CACHE_BITS, address);
    if (cached != 0) return cached == 1;
    int app = is_app_symbol(bgsim_function_symbol(pc));
    bgsim_address_cache_put(site_cache, SITE_CACHE_BITS, address, app ? 1 : 2);
    return app;
}

void bgsim_plain_mutex_sync_slow(const void *mutex, int how, const void *caller) {
    uintptr_t pc = (uintptr_t)caller;
    if (pc >= runtime_start && pc < runtime_end) return;  // the Swift runtime's own caches
    for (int index = 0; index < HARNESS_LIBRARIES; index++) {
        if (pc >= harness_start[index] && pc < harness_end[index]) return;  // a test framework's
    }
    bgsim_plain_sync_slow(mutex, how);
}

#else

int bgsim_plain_accesses_supported(void) { return 0; }

const char *bgsim_function_symbol(const void *pc) {
    (void)pc;
    return NULL;
}

int bgsim_app_symbol(const char *name) {
    (void)name;
    return 0;
}

const void *bgsim_class_instance_at_or_below(const void *from, size_t reach, const void **metadata) {
    (void)from;
    (void)reach;
    (void)metadata;
    return NULL;
}

void bgsim_plain_mutex_sync_slow(const void *mutex, int how, const void *caller) {
    (void)mutex;
    (void)how;
    (void)caller;
}

#endif
