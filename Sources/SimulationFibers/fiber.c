// The stack switch of SimulationFibers.h, for two targets:
// - x86-64 System V on Linux;
// - arm64 (AArch64, AAPCS64) on Linux and on Darwin (Apple silicon macOS, iOS).
// Everything else (and any sanitizer build) reports `bgsim_fibers_supported() == 0`, and the
// engine uses OS threads. Tested by .ci/arm64-fibers (.ci/README.md): arm64 Linux under qemu,
// Darwin arm64 compiled only, x86-64 natively, and by the Swift suite FiberCarrierTests.
#include "SimulationFibers.h"

#include <stdint.h>

// Sanitizers keep per-thread stack state that a switch would not follow. ShadowCallStack keeps
// its shadow stack pointer in x18, which the arm64 switch leaves alone (the platform register).
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || \
    __has_feature(hwaddress_sanitizer) || __has_feature(shadow_call_stack)
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

#elif defined(__aarch64__) && (defined(__linux__) || defined(__APPLE__)) && !defined(__arm64e__) && \
    !defined(BGSIM_SANITIZED)

// Plain arm64 is supported: what SwiftPM builds for Apple silicon Macs, iOS devices and arm64
// Linux. Return-address signing in callers (pac-ret on Linux) needs nothing here: a caller signs
// and checks its own lr in its own frame, and the switch saves x30 and returns with a plain
// `ret`. arm64e (pointer authentication in the ABI, used by Apple's system binaries; SwiftPM
// does not build apps or tests for it by default) would need more: `entry` is then a signed
// function pointer, to be called with `blraaz x19`, and the address of bgsim_fiber_start stored
// as the new fiber's lr would have to be stripped of its signature (`ptrauth_strip`) or signed
// as a return address. Until that is written and run on arm64e hardware, arm64e reports fibers
// unsupported and uses OS threads.

int bgsim_fibers_supported(void) { return 1; }

// Darwin's symbols take a leading underscore and have no ELF `.type`/`.size`.
#if defined(__APPLE__)
#define BGSIM_BEGIN(name) ".globl _" #name "\n.p2align 2\n_" #name ":\n"
#define BGSIM_END(name) ""
#define BGSIM_TAIL ""
#else
#define BGSIM_BEGIN(name) ".globl " #name "\n.type " #name ",%function\n.p2align 2\n" #name ":\n"
#define BGSIM_END(name) ".size " #name ", .-" #name "\n"
#define BGSIM_TAIL ".section .note.GNU-stack,\"\",%progbits\n.text\n"
#endif

// bgsim_fiber_switch(void **save /* x0 */, void *next /* x1 */)
// The callee-saved state of AAPCS64, saved on the switching stack, from the saved sp up (176
// bytes, so sp stays 16-byte aligned): +0 x19, x20, ... +64 x27, x28; +80 x29 (fp), x30 (lr);
// +96 d8, d9, ... +144 d14, d15 (the low halves of v8-v15, all AAPCS64 keeps); +160 FPCR
// (rounding mode, flush-to-zero: what MXCSR is on x86-64); +168 padding. x18, Darwin's
// platform register (a temporary on Linux, the shadow call stack's pointer with it), is
// never touched. FPCR is written only when it differs: a write can be slow, a read is not.
// `hint #34` is `bti c`, a landing pad for a caller that branches through a register (a no-op
// without BTI).
__asm__(
    ".text\n"
    BGSIM_BEGIN(bgsim_fiber_switch)
    "    hint #34\n"
    "    sub sp, sp, #176\n"
    "    stp x19, x20, [sp, #0]\n"
    "    stp x21, x22, [sp, #16]\n"
    "    stp x23, x24, [sp, #32]\n"
    "    stp x25, x26, [sp, #48]\n"
    "    stp x27, x28, [sp, #64]\n"
    "    stp x29, x30, [sp, #80]\n"
    "    stp d8, d9, [sp, #96]\n"
    "    stp d10, d11, [sp, #112]\n"
    "    stp d12, d13, [sp, #128]\n"
    "    stp d14, d15, [sp, #144]\n"
    "    mrs x9, fpcr\n"
    "    str x9, [sp, #160]\n"
    "    mov x10, sp\n"
    "    str x10, [x0]\n"
    "    mov sp, x1\n"
    "    ldr x10, [sp, #160]\n"
    "    cmp x9, x10\n"
    "    b.eq 1f\n"
    "    msr fpcr, x10\n"
    "1:\n"
    "    ldp x19, x20, [sp, #0]\n"
    "    ldp x21, x22, [sp, #16]\n"
    "    ldp x23, x24, [sp, #32]\n"
    "    ldp x25, x26, [sp, #48]\n"
    "    ldp x27, x28, [sp, #64]\n"
    "    ldp x29, x30, [sp, #80]\n"
    "    ldp d8, d9, [sp, #96]\n"
    "    ldp d10, d11, [sp, #112]\n"
    "    ldp d12, d13, [sp, #128]\n"
    "    ldp d14, d15, [sp, #144]\n"
    "    add sp, sp, #176\n"
    "    ret\n"
    BGSIM_END(bgsim_fiber_switch)
    "\n"
    // A new fiber's first `ret` lands here with entry in x19, its argument in x20, fp zero (the
    // end of frame-pointer walks) and sp at the 16-byte aligned stack top; entry never returns
    // (`brk` if it does).
    BGSIM_BEGIN(bgsim_fiber_start)
    "    mov x0, x20\n"
    "    blr x19\n"
    "    brk #1\n"
    BGSIM_END(bgsim_fiber_start)
    BGSIM_TAIL);

extern void bgsim_fiber_start(void);

void *bgsim_fiber_prepare(void *stack_top, void (*entry)(void *), void *argument) {
    uintptr_t top = (uintptr_t)stack_top & ~(uintptr_t)15;
    // After the switch's `add sp, sp, #176`, sp = top (aligned), and `ret` jumps to x30.
    uint64_t *frame = (uint64_t *)(top - 176);
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    for (int index = 0; index < 22; index++) frame[index] = 0; // x19-x28, d8-d15: zero
    frame[0] = (uint64_t)(uintptr_t)entry;             // x19
    frame[1] = (uint64_t)(uintptr_t)argument;          // x20
    frame[10] = 0;                                     // x29 (fp): ends frame-pointer walks
    frame[11] = (uint64_t)(uintptr_t)bgsim_fiber_start; // x30 (lr): where the first `ret` goes
    frame[20] = fpcr;
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
