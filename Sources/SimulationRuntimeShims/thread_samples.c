// Where a thread is (see shims_thread_samples.h, `bgsim_sample_thread`): for the hang watchdog,
// which names the code a run that made no progress was stuck in. The sampled thread is stopped for
// a moment by a signal of the shim's own, whose handler only copies three registers; the frame
// chain is then followed from the watchdog's thread with `process_vm_readv`, so a broken chain
// (code built without frame pointers, C libraries) ends the walk, never the process.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__) && defined(__LP64__) && (defined(__x86_64__) || defined(__aarch64__))
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/// What the handler copied: the interrupted program counter, frame pointer and stack pointer,
/// and whether it has (set last, with release order).
static struct {
    uintptr_t pc, fp, sp;
    int answered;
} sample;

/// One sample at a time in the process.
static pthread_mutex_t sampling = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;

/// The signal: one of the real-time ones, which nothing in a Swift process uses (glibc keeps the
/// first few for itself; `SIGRTMIN` is already past them).
static int sample_signal(void) { return SIGRTMAX - 3; }

static void sample_handler(int signal, siginfo_t *info, void *context) {
    (void)signal;
    (void)info;
    const ucontext_t *state = context;
#if defined(__x86_64__)
    sample.pc = (uintptr_t)state->uc_mcontext.gregs[REG_RIP];
    sample.fp = (uintptr_t)state->uc_mcontext.gregs[REG_RBP];
    sample.sp = (uintptr_t)state->uc_mcontext.gregs[REG_RSP];
#else
    sample.pc = (uintptr_t)state->uc_mcontext.pc;
    sample.fp = (uintptr_t)state->uc_mcontext.regs[29];
    sample.sp = (uintptr_t)state->uc_mcontext.sp;
#endif
    __atomic_store_n(&sample.answered, 1, __ATOMIC_RELEASE);
}

static void install_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = sample_handler;
    action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(sample_signal(), &action, NULL);
}

void bgsim_sample_thread_prepare(void) {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, sample_signal());
    pthread_sigmask(SIG_UNBLOCK, &signals, NULL);
}

int bgsim_sample_thread(pthread_t thread, uintptr_t *frames, int capacity) {
    if (capacity <= 0) return 0;
    pthread_once(&handler_once, install_handler);
    pthread_mutex_lock(&sampling);
    __atomic_store_n(&sample.answered, 0, __ATOMIC_RELAXED);
    int count = 0;
    if (pthread_kill(thread, sample_signal()) == 0) {
        // A running thread answers at once; a blocked one when the kernel delivers (at most 100 ms).
        struct timespec pause = {0, 1000000};
        for (int waited = 0; waited < 100 && !__atomic_load_n(&sample.answered, __ATOMIC_ACQUIRE); waited++) {
            nanosleep(&pause, NULL);  // tidy: allow the watchdog's thread, never a run's
        }
    }
    if (__atomic_load_n(&sample.answered, __ATOMIC_ACQUIRE)) {
        frames[count++] = sample.pc;
        // The chain: each frame's first word is the caller's frame, its second the return address.
        // A frame lies above the one it called, within a megabyte of it, and word-aligned.
        uintptr_t fp = sample.fp, lowest = sample.sp;
        while (count < capacity && fp >= lowest && fp % sizeof(uintptr_t) == 0) {
            uintptr_t next = 0, back = 0;
            if (!bgsim_read_word(fp, &next) || !bgsim_read_word(fp + sizeof(uintptr_t), &back) || back == 0) break;
            frames[count++] = back - 1;  // inside the call instruction: its function's
            if (next <= fp || next - fp > (1u << 20)) break;
            lowest = fp;
            fp = next;
        }
    }
    pthread_mutex_unlock(&sampling);
    return count;
}

int bgsim_is_app_function(uintptr_t pc) {
    return bgsim_app_symbol(bgsim_function_symbol((const void *)pc));
}

#else

void bgsim_sample_thread_prepare(void) {}

int bgsim_sample_thread(pthread_t thread, uintptr_t *frames, int capacity) {
    (void)thread;
    (void)frames;
    (void)capacity;
    return 0;
}

int bgsim_is_app_function(uintptr_t pc) {
    (void)pc;
    return 0;
}

#endif
