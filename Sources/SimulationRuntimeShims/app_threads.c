// App code's own threads inside a run (shims_internal.h). A thread the app starts itself
// (`Thread.detachNewThread { … }`, `Thread(block:).start()`, a `Thread` subclass, a C
// `pthread_create`) would run on a real OS thread, outside the run: its code calls into the
// simulated app at wall-clock moments (its `DispatchQueue.main.async` goes to the real main
// queue, whose block then ends a background task from outside the run), which no seed reproduces
// and which the engine, touched from two threads at once, cannot survive. So such a thread,
// started on one of a run's simulated threads, runs as a simulated thread of its own: its start
// routine is handed to the run as the first block of a new serial Dispatch queue of the calling
// thread's process (as a `dispatch_async_f` there), which the run's simulator takes like any
// queue the app made: it interleaves with the run's other threads, freezes with its process and
// dies with it, as a device runs it beside the others. One the run does not take (started while
// the run ends or its process is torn down) is not started.
//
// "The app started it" is told by the frame-pointer chain: `pthread_create` called by app code
// itself, or by Foundation's `_CFThreadCreate` inside `Thread.start()`, called by app code or by
// `Thread.detachNewThread(_:)` called by app code. A thread Foundation, Dispatch, the Swift
// runtime or the engine starts for itself is a real thread as before. The handle returned names
// a parked thread of the shim's (`pthread_join` on it fails with EINVAL, as on a detached
// thread). What a start routine sets for its thread it sets on the OS thread that carries it,
// which other simulated threads share; Foundation's `Thread.current` is cleared and released when
// a Foundation thread ends (`run_app_thread`). Linux with glibc, 64-bit.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdint.h>

// Not in sanitizer builds: ThreadSanitizer intercepts `pthread_create` itself and crashes when its
// interceptor is reached through another definition (CI's ThreadSanitizer step runs no app threads).
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define BGSIM_APP_THREADS_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define BGSIM_APP_THREADS_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && defined(__LP64__) && !defined(BGSIM_APP_THREADS_SANITIZED)
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

void *dispatch_queue_create(const char *label, void *attribute);
void dispatch_release(void *object);

/// The code spans of Foundation's thread-starting functions, found on first use.
static uintptr_t cf_create_start, cf_create_end, start_start, start_end, detach_start, detach_end;
static pthread_once_t spans_once = PTHREAD_ONCE_INIT;

static void find_spans(void) {
    bgsim_symbol_span("_CFThreadCreate", &cf_create_start, &cf_create_end);
    bgsim_symbol_span("$s10Foundation6ThreadC5startyyF", &start_start, &start_end);
    bgsim_symbol_span("$s10Foundation6ThreadC09detachNewB0yyyyYbcFZ", &detach_start, &detach_end);
}

static int inside(uintptr_t pc, uintptr_t start, uintptr_t end) { return pc >= start && pc < end; }

/// The return address one frame up from the frame at `*frame`, which moves there; 0 when the
/// chain ends or does not read.
static uintptr_t caller_of(uintptr_t *frame) {
    uintptr_t up, pc;
    if (!bgsim_read_word(*frame, &up) || up <= *frame || !bgsim_read_word(up + sizeof(uintptr_t), &pc)) return 0;
    *frame = up;
    return pc;
}

/// Whether app code asked for the thread whose `pthread_create` returns to `caller`, with the
/// create function's own frame at `frame`: 1 by calling it, 2 through Foundation's `Thread`, 0 no.
static int app_started(const void *caller, const void *frame) {
    uintptr_t pc = (uintptr_t)caller, fp = (uintptr_t)frame;
    if (bgsim_is_app_site(caller)) return 1;
    pthread_once(&spans_once, find_spans);
    if (!inside(pc, cf_create_start, cf_create_end)) return 0;
    if (!inside(pc = caller_of(&fp), start_start, start_end)) return 0;
    pc = caller_of(&fp);
    if (inside(pc, detach_start, detach_end)) pc = caller_of(&fp);
    return pc != 0 && bgsim_is_app_site((const void *)pc) ? 2 : 0;
}

typedef struct {
    void *(*start)(void *);
    void *argument;
    /// Started by Foundation's `Thread.start()`: its start routine sets `Thread.current` first.
    int foundation;
} app_thread;

/// The thread-specific value a Foundation thread's start routine set first: `Thread.current`,
/// which CoreFoundation retains and releases only when the OS thread exits.
typedef struct {
    pthread_key_t key;
    const void *value;
    int set;
} current_thread;

/// Where the next `pthread_setspecific` on this OS thread is noted (then cleared): set just
/// before a Foundation thread's start routine, whose first act is that call, before any app code
/// can suspend the job.
static BGSIM_TLS current_thread *note_next_specific;

typedef int (*setspecific_fn)(pthread_key_t, const void *);

int pthread_setspecific(pthread_key_t key, const void *value) {
    BGSIM_NEXT(pthread_setspecific, setspecific_fn);
    current_thread *note = note_next_specific;
    if (__builtin_expect(note != NULL, 0)) {
        note_next_specific = NULL;
        note->key = key;
        note->value = value;
        note->set = 1;
    }
    return next_pthread_setspecific(key, value);
}

void swift_release(void *object);

/// Runs an app thread's start routine as its simulated thread's job. A Foundation thread's
/// `Thread.current` is cleared from the OS thread when it ends (if no other thread set it since)
/// and released, as a real thread's exit would: its block and what it captured (a background-task
/// token whose `deinit` ends the task) go when the thread ends, inside the run, not when the
/// carrying OS thread exits, after it (where the token reached a simulated app that was gone).
static void run_app_thread(void *context) {
    app_thread thread = *(app_thread *)context;
    free(context);
    current_thread current = {0};
    if (thread.foundation) note_next_specific = &current;
    thread.start(thread.argument);
    if (note_next_specific == &current) note_next_specific = NULL;
    if (!current.set || current.value == NULL) return;
    if (pthread_getspecific(current.key) == current.value) {
        BGSIM_NEXT(pthread_setspecific, setspecific_fn);
        next_pthread_setspecific(current.key, NULL);
    }
    swift_release((void *)current.value);
}

/// A detached thread of the shim's that parks for ever: the handle given for an app thread.
static pthread_t parked;
static int parked_status;
static pthread_once_t parked_once = PTHREAD_ONCE_INIT;
typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static void *park(void *unused) {
    (void)unused;
    for (;;) pause();
    return NULL;
}

static void start_parked(void) {
    BGSIM_NEXT(pthread_create, create_fn);
    pthread_attr_t detached;
    pthread_attr_init(&detached);
    pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
    parked_status = next_pthread_create(&parked, &detached, park, NULL);
    pthread_attr_destroy(&detached);
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
    BGSIM_CALLER(caller);
    BGSIM_NEXT(pthread_create, create_fn);
    int started = bgsim_run_mark_tls == NULL ? 0 : app_started(caller, __builtin_frame_address(0));
    if (started == 0) return next_pthread_create(thread, attributes, start, argument);
    pthread_once(&parked_once, start_parked);
    if (parked_status != 0) return parked_status;
    app_thread *made = malloc(sizeof *made);
    if (made == NULL) return EAGAIN;
    made->start = start;
    made->argument = argument;
    made->foundation = started == 2;
    void *queue = dispatch_queue_create("thread", NULL);
    bgsim_dispatch_call call = {0};
    call.context = made;
    call.work = run_app_thread;
    // Not taken (the run is ending, or its process is being torn down): not started at all, as
    // code of a process that is gone never runs; on a real thread it would run outside the run.
    if (!bgsim_dispatch_hand_over(queue, "pthread_create", BGSIM_DISPATCH_ASYNC, 0, &call)) free(made);
    dispatch_release(queue);
    *thread = parked;
    return 0;
}

#endif
