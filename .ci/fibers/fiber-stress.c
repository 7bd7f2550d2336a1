// A stress test of the fiber stack switch (Sources/SimulationFibers/fiber.c), in C, for Linux on
// arm64 (run under qemu-aarch64 by .ci/arm64-fibers) and x86-64 (run natively there).
//
// 32 fibers on guard-paged stacks switch to one another in a pseudo-random order (a fixed
// xorshift seed: every run makes the same switches) until 60,000 switches are made. Around every
// switch each fiber checks the contract of SimulationFibers.h:
// - the callee-saved registers (arm64: x19-x29, d8-d15; x86-64: rbx, rbp, r12-r15) hold after
//   the switch the sentinels this fiber put there before it (`checked_switch`, in assembly below);
// - its own rounding mode (FPCR on arm64, MXCSR and the x87 control word on x86-64) is back, by
//   `fegetround` and by a division whose last bit depends on it;
// - its stack is 16-byte aligned (the frame address), also at the bottom of a 1,000-frame
//   recursion whose locals must be intact when it unwinds (every 16th switch is made from there);
// - a new fiber starts with the rounding mode of the thread that prepared it.
// Then a fiber whose entry returns must trap (in a child process). Exits 0 and prints one PASS
// line, or prints one FAIL line and exits 1.
#define _GNU_SOURCE
#include "SimulationFibers.h"

#include <fenv.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

enum { fiber_count = 32, total_switches = 60000, stack_bytes = 256 << 10, dive_depth = 1000, dive_every = 16 };

// checked_switch(save, next, seed): fills the callee-saved registers with seed, seed + 1, ...,
// calls bgsim_fiber_switch(save, next), and returns how many of them differ when it is back.
// Its caller's own values of those registers are saved and restored around it, as the ABI asks.
unsigned long checked_switch(void **save, void *next, uint64_t seed);

#if defined(__aarch64__) && defined(__linux__)
// Each callee-saved register with its sentinel's offset from the seed, as an X-macro: the
// fills and the checks below walk the same list.
#define REGISTERS(X, X_D) \
    X(x19, 0) X(x20, 1) X(x21, 2) X(x22, 3) X(x23, 4) X(x24, 5) X(x25, 6) X(x26, 7) X(x27, 8) X(x28, 9) \
    X(x29, 10) X_D(d8, 11) X_D(d9, 12) X_D(d10, 13) X_D(d11, 14) X_D(d12, 15) X_D(d13, 16) X_D(d14, 17) \
    X_D(d15, 18)
#define FILL(reg, k) "add x9, x2, #" #k "\n mov " #reg ", x9\n"
#define FILL_D(reg, k) "add x9, x2, #" #k "\n fmov " #reg ", x9\n"
#define CHECK(reg, k) "add x9, x2, #" #k "\n cmp " #reg ", x9\n cinc x0, x0, ne\n"
#define CHECK_D(reg, k) "add x9, x2, #" #k "\n fmov x10, " #reg "\n cmp x10, x9\n cinc x0, x0, ne\n"
__asm__(
    ".text\n.globl checked_switch\n.type checked_switch,%function\n.p2align 2\nchecked_switch:\n"
    "sub sp, sp, #176\n"
    "stp x19, x20, [sp, #0]\n stp x21, x22, [sp, #16]\n stp x23, x24, [sp, #32]\n"
    "stp x25, x26, [sp, #48]\n stp x27, x28, [sp, #64]\n stp x29, x30, [sp, #80]\n"
    "stp d8, d9, [sp, #96]\n stp d10, d11, [sp, #112]\n stp d12, d13, [sp, #128]\n"
    "stp d14, d15, [sp, #144]\n str x2, [sp, #160]\n"
    REGISTERS(FILL, FILL_D)
    "bl bgsim_fiber_switch\n"
    "ldr x2, [sp, #160]\n mov x0, #0\n"
    REGISTERS(CHECK, CHECK_D)
    "ldp x19, x20, [sp, #0]\n ldp x21, x22, [sp, #16]\n ldp x23, x24, [sp, #32]\n"
    "ldp x25, x26, [sp, #48]\n ldp x27, x28, [sp, #64]\n ldp x29, x30, [sp, #80]\n"
    "ldp d8, d9, [sp, #96]\n ldp d10, d11, [sp, #112]\n ldp d12, d13, [sp, #128]\n"
    "ldp d14, d15, [sp, #144]\n add sp, sp, #176\n ret\n"
    ".size checked_switch, .-checked_switch\n"
    ".section .note.GNU-stack,\"\",%progbits\n.text\n");
#elif defined(__x86_64__) && defined(__linux__)
#define REGISTERS(X) X(%rbx, 0) X(%rbp, 1) X(%r12, 2) X(%r13, 3) X(%r14, 4) X(%r15, 5)
#define FILL(reg, k) "leaq " #k "(%rdx), " #reg "\n"
#define CHECK(reg, k) "leaq " #k "(%rdx), %r8\n cmpq %r8, " #reg "\n setne %cl\n movzbl %cl, %ecx\n addq %rcx, %rax\n"
__asm__(
    ".text\n.globl checked_switch\n.type checked_switch,@function\n.p2align 4\nchecked_switch:\n"
    "pushq %rbp\n pushq %rbx\n pushq %r12\n pushq %r13\n pushq %r14\n pushq %r15\n"
    "pushq %rdx\n" // the seed, kept for the checks; it also aligns the call below to 16 bytes
    REGISTERS(FILL)
    "callq bgsim_fiber_switch\n"
    "popq %rdx\n xorl %eax, %eax\n"
    REGISTERS(CHECK)
    "popq %r15\n popq %r14\n popq %r13\n popq %r12\n popq %rbx\n popq %rbp\n ret\n"
    ".size checked_switch, .-checked_switch\n"
    ".section .note.GNU-stack,\"\",@progbits\n.text\n");
#else
#error "fiber-stress runs on Linux arm64 and x86-64 (the targets whose fibers it can run here)"
#endif

typedef struct {
    void *slot;  // the saved stack pointer while switched away
    int id;
    int mode;    // this fiber's rounding mode
    uint64_t switches;
} stress_fiber;

static stress_fiber fibers[fiber_count];
static void *driver_slot;
static int driver_mode = FE_TOWARDZERO;
static uint64_t switches_left = total_switches;
static uint64_t random_state = 0x9E3779B97F4A7C15u;
static int started;
static volatile double one = 1.0, three = 3.0;
static volatile long double long_one = 1.0L, long_three = 3.0L;

static _Noreturn void fail(const char *what, const stress_fiber *fiber) {
    if (fiber) {
        printf("fiber-stress: FAIL: %s (fiber %d, after %llu of its switches)\n", what, fiber->id,
               (unsigned long long)fiber->switches);
    } else {
        printf("fiber-stress: FAIL: %s\n", what);
    }
    fflush(stdout);
    _exit(1);
}

static uint64_t next_random(void) {
    random_state ^= random_state << 13;
    random_state ^= random_state >> 7;
    random_state ^= random_state << 17;
    return random_state;
}

static void check_alignment(const stress_fiber *self) {
    if ((uintptr_t)__builtin_frame_address(0) % 16 != 0) fail("a frame is not 16-byte aligned", self);
}

// One switch away and back, checked: registers, rounding mode (by fegetround and by a division
// in double and long double, whose last bits depend on it), alignment.
static void step(stress_fiber *self) {
    void *next;
    if (switches_left == 0) {
        next = driver_slot;
    } else {
        switches_left--;
        int other = (self->id + 1 + (int)(next_random() % (fiber_count - 1))) % fiber_count;
        next = fibers[other].slot;
    }
    double quotient = one / three;
    long double long_quotient = long_one / long_three;
    uint64_t seed = ((uint64_t)self->id << 40) | (self->switches << 8);
    unsigned long changed = checked_switch(&self->slot, next, seed);
    self->switches++;
    if (changed != 0) fail("callee-saved registers changed across a switch", self);
    if (fegetround() != self->mode) fail("the rounding mode changed across a switch", self);
    double again = one / three;
    long double long_again = long_one / long_three;
    if (memcmp(&again, &quotient, sizeof again) != 0) fail("a division rounds differently after a switch", self);
    if (long_again != long_quotient) fail("a long double division rounds differently after a switch", self);
    check_alignment(self);
}

// Recurses `depth` frames with a pattern in each, switches at the bottom, and checks every
// pattern on the way up (another fiber writing this stack would show here).
__attribute__((noinline)) static void dive(stress_fiber *self, int depth) {
    volatile unsigned char pattern[96];
    for (size_t index = 0; index < sizeof pattern; index++) pattern[index] = (unsigned char)(depth * 7 + index + self->id);
    if (depth == 0) {
        step(self);
    } else {
        dive(self, depth - 1);
    }
    for (size_t index = 0; index < sizeof pattern; index++) {
        if (pattern[index] != (unsigned char)(depth * 7 + index + self->id)) fail("a deep frame was overwritten", self);
    }
    check_alignment(self);
}

static void fiber_main(void *argument) {
    stress_fiber *self = argument;
    started++;
    check_alignment(self);
    if (fegetround() != driver_mode) fail("a new fiber did not start with its preparer's rounding mode", self);
    if (fesetround(self->mode) != 0) fail("fesetround failed", self);
    for (;;) {
        if (self->switches % dive_every == dive_every - 1) {
            dive(self, dive_depth);
        } else {
            step(self);
        }
    }
}

// A stack like Fiber.swift's: `stack_bytes` usable, a guard page below. Returns its top.
static void *map_stack(void) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *base = mmap(NULL, stack_bytes + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (base == MAP_FAILED || mprotect(base, page, PROT_NONE) != 0) fail("cannot map a fiber stack", NULL);
    return (char *)base + stack_bytes + page;
}

static void returning_entry(void *argument) { (void)argument; }

// A fiber whose entry returns must trap (brk on arm64, ud2 on x86-64), in a child process.
static void check_return_traps(void) {
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        alarm(10); // a fall-through that loops ends here, with SIGALRM
        if (freopen("/dev/null", "w", stderr) == NULL) _exit(2);
        void *slot = bgsim_fiber_prepare(map_stack(), returning_entry, NULL);
        void *save;
        bgsim_fiber_switch(&save, slot);
        _exit(0);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child) fail("cannot fork the trap check", NULL);
    if (!WIFSIGNALED(status) || (WTERMSIG(status) != SIGTRAP && WTERMSIG(status) != SIGILL)) {
        fail("a fiber whose entry returned did not trap", NULL);
    }
}

int main(void) {
    if (!bgsim_fibers_supported()) fail("bgsim_fibers_supported() is 0 on this target", NULL);
    const int modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    if (fesetround(driver_mode) != 0) fail("fesetround failed", NULL);
    for (int index = 0; index < fiber_count; index++) {
        fibers[index] = (stress_fiber){.id = index, .mode = modes[index % 4]};
        fibers[index].slot = bgsim_fiber_prepare(map_stack(), fiber_main, &fibers[index]);
    }
    stress_fiber driver = {.id = -1, .mode = driver_mode}; // named -1 in a FAIL line
    unsigned long changed = checked_switch(&driver_slot, fibers[0].slot, 0xD00D0000);
    if (changed != 0) fail("the driver's callee-saved registers changed", &driver);
    if (fegetround() != driver_mode) fail("the driver's rounding mode changed", &driver);
    if (started != fiber_count) fail("not every fiber was started", &driver);
    check_return_traps();
    printf("fiber-stress: PASS: %d fibers, %d checked switches (every %dth from %d frames deep), "
           "a returning entry traps\n",
           fiber_count, total_switches, dive_every, dive_depth);
    return 0;
}
