// The stack switch of SimulationFibers.h. x86-64 System V only (the one target it is tested on);
// everything else reports `bgsim_fibers_supported() == 0` and the engine uses OS threads.
#include "SimulationFibers.h"

#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define BGSIM_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define BGSIM_SANITIZED 1
#endif

#if defined(__x86_64__) && defined(__linux__) && !defined(BGSIM_SANITIZED)

int bgsim_fibers_supported(void) { return 1; }

// bgsim_fiber_switch(void **save /* rdi */, void *next /* rsi */)
// Frame saved on the switching stack, from the saved stack pointer up:
//   +0 MXCSR (4 bytes), x87 control word (2 bytes), padding; +8 r15; +16 r14; +24 r13; +32 r12;
//   +40 rbx; +48 rbp; +56 return address.
__asm__(
    ".text\n"
    ".globl bgsim_fiber_switch\n"
    ".type bgsim_fiber_switch,@function\n"
    ".p2align 4\n"
    "bgsim_fiber_switch:\n"
    "    pushq %rbp\n"
    "    pushq %rbx\n"
    "    pushq %r12\n"
    "    pushq %r13\n"
    "    pushq %r14\n"
    "    pushq %r15\n"
    "    subq $8, %rsp\n"
    "    stmxcsr (%rsp)\n"
    "    fnstcw 4(%rsp)\n"
    "    movq %rsp, (%rdi)\n"
    "    movq %rsi, %rsp\n"
    "    ldmxcsr (%rsp)\n"
    "    fldcw 4(%rsp)\n"
    "    addq $8, %rsp\n"
    "    popq %r15\n"
    "    popq %r14\n"
    "    popq %r13\n"
    "    popq %r12\n"
    "    popq %rbx\n"
    "    popq %rbp\n"
    "    ret\n"
    ".size bgsim_fiber_switch, .-bgsim_fiber_switch\n"
    "\n"
    // A new fiber's first return lands here with entry in r12 and its argument in r13, the
    // stack 16-byte aligned; entry never returns (ud2 if it does).
    ".globl bgsim_fiber_start\n"
    ".type bgsim_fiber_start,@function\n"
    ".p2align 4\n"
    "bgsim_fiber_start:\n"
    "    movq %r13, %rdi\n"
    "    callq *%r12\n"
    "    ud2\n"
    ".size bgsim_fiber_start, .-bgsim_fiber_start\n"
    ".section .note.GNU-stack,\"\",@progbits\n"
    ".text\n");

extern void bgsim_fiber_start(void);

void *bgsim_fiber_prepare(void *stack_top, void (*entry)(void *), void *argument) {
    uintptr_t top = (uintptr_t)stack_top & ~(uintptr_t)15;
    // After the switch's `ret`, rsp = top - 16 (aligned), as a call site would leave it.
    uint64_t *frame = (uint64_t *)(top - 16 - 8 - 56);
    uint32_t mxcsr;
    uint16_t control;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(control));
    frame[0] = (uint64_t)mxcsr | ((uint64_t)control << 32);
    frame[1] = 0;                            // r15
    frame[2] = 0;                            // r14
    frame[3] = (uint64_t)(uintptr_t)argument; // r13
    frame[4] = (uint64_t)(uintptr_t)entry;    // r12
    frame[5] = 0;                            // rbx
    frame[6] = 0;                            // rbp: ends frame-pointer walks (backtraces)
    frame[7] = (uint64_t)(uintptr_t)bgsim_fiber_start;
    frame[8] = 0;                            // a zero return address above the first frame
    return frame;
}

#else

int bgsim_fibers_supported(void) { return 0; }

void *bgsim_fiber_prepare(void *stack_top, void (*entry)(void *), void *argument) {
    (void)stack_top;
    (void)entry;
    (void)argument;
    __builtin_trap();
}

void bgsim_fiber_switch(void **save, void *next) {
    (void)save;
    (void)next;
    __builtin_trap();
}

#endif
