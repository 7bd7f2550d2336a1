// Foundation's run loop inside a run. App code schedules a `Timer` (`Timer.scheduledTimer` on the
// main thread, `RunLoop.main.add(timer, forMode:)`) or a block (`RunLoop.main.perform`) on the
// main run loop, which on a device runs on the main thread between main-queue work. In a run no
// real run loop runs the simulated main thread's work: made for real, the timer would never fire
// (or fire on the real main thread, outside the run, when a test spins its run loop).
//
// So on a thread with a run mark, for the main run loop (`CFRunLoopGetMain()`, or the current
// run loop while the simulated main thread runs):
// - `CFRunLoopAddTimer` hands the timer to the engine as a timer on the main queue (the
//   operations of a Dispatch timer source: its handler is this file's `fire`, its schedule the
//   timer's fire date and interval, then `resume`), and does not add it to the real run loop. A
//   timer added in a mode other than the default and common modes never fires (the simulated
//   main run loop runs no other mode).
// - `CFRunLoopTimerSetNextFireDate` (`timer.fireDate = ...`) re-schedules it;
//   `CFRunLoopTimerInvalidate` (`timer.invalidate()`) cancels it. Both also update the real
//   timer, so `isValid` and `fireDate` read as on a device.
// - `CFRunLoopPerformBlock` sends the block to the main queue (`dispatch_async`'s operation).
// - `Timer(timeInterval:repeats:block:)` first fires an interval after it is made, as Darwin's
//   does (Foundation on Linux fires it at once; below).
// A timer added, or a block sent, to another thread's run loop inside a run is dropped: nothing
// in the run runs that loop, so it never fires, as on a device where the thread does not run its
// loop. It is not added to the real loop either: that is the loop of the OS thread carrying the
// run, which code outside the run may run later (Foundation's `Process.waitUntilExit` runs the
// current run loop), and the run's timer then fired there, after its run had gone (a test
// process crashed on it).
//
// Only timers made inside a run (`CFRunLoopTimerCreate` on a run's thread: their callout is
// recorded then; the real timer keeps it private) can be fired; adding any other one to the main
// run loop inside a run is reported as a source started (an escape) and not added.
#define _GNU_SOURCE
#include "SimulationRuntimeShims.h"
#include "shims_internal.h"

#include <stdlib.h>

#if defined(__linux__)
#include <dlfcn.h>

typedef void (*timer_callout_fn)(void *timer, void *info);

/// Foundation's `Thread.isMainThread` as current_queue.c answers it (the simulated main thread).
extern unsigned char _CFIsMainThread(void);

/// `CFRunLoopTimerContext` (CoreFoundation's layout).
typedef struct timer_context {
    long version;
    void *info;
    const void *(*retain)(const void *info);
    void (*release)(const void *info);
    void *(*copy_description)(const void *info);
} timer_context;

/// CoreFoundation's functions this file calls, found at first use (Foundation may not be loaded:
/// then no timer is ever made).
#define CF(name, type) \
    static void *cf_slot_##name; \
    type cf_##name = (type)bgsim_default_symbol(&cf_slot_##name, #name)

typedef void *(*get_run_loop_fn)(void);
typedef double (*timer_double_fn)(void *);
typedef unsigned char (*timer_bool_fn)(void *);
typedef const void *(*retain_fn)(const void *);
typedef void (*release_fn)(const void *);
typedef unsigned char (*equal_fn)(const void *, const void *);
typedef double (*absolute_now_fn)(void);

/// Seconds from 1970 to CoreFoundation's reference date (2001-01-01).
#define CF_ABSOLUTE_TIME_1970 978307200.0

// MARK: Timers made in a run

/// A timer made on a run's thread: what firing it takes, and how the run holds it.
typedef struct run_loop_timer {
    void *timer;
    timer_callout_fn callout;
    void *info;
    /// Handed to the engine (added to the main run loop).
    int added;
    /// Added in a mode the simulated main run loop runs (default or common): it fires.
    int fires;
} run_loop_timer;

// A small table shared by every thread (a timer may be used from another simulated thread, which
// with OS-thread carriers is another OS thread); when full the oldest entry goes.
#define RUN_LOOP_TIMER_CAPACITY 256
static run_loop_timer run_loop_timers[RUN_LOOP_TIMER_CAPACITY];
static uint32_t run_loop_timer_next;
static char run_loop_timers_lock;

static void lock_timers(void) {
    while (__atomic_test_and_set(&run_loop_timers_lock, __ATOMIC_ACQUIRE)) {}
}

static void unlock_timers(void) { __atomic_clear(&run_loop_timers_lock, __ATOMIC_RELEASE); }

/// The entry of `timer` (call with the table locked), or NULL.
static run_loop_timer *find_timer(void *timer) {
    for (int index = 0; index < RUN_LOOP_TIMER_CAPACITY; index++) {
        if (run_loop_timers[index].timer == timer) return &run_loop_timers[index];
    }
    return NULL;
}

typedef void *(*timer_create_fn)(const void *, double, double, unsigned long, long, timer_callout_fn, timer_context *);

void *CFRunLoopTimerCreate(const void *allocator, double fire_date, double interval, unsigned long flags, long order,
                           timer_callout_fn callout, timer_context *context) {
    BGSIM_NEXT(CFRunLoopTimerCreate, timer_create_fn);
    void *timer = next_CFRunLoopTimerCreate(allocator, fire_date, interval, flags, order, callout, context);
    if (timer == NULL || callout == NULL || bgsim_run_mark_get() == NULL) return timer;
    // The timer keeps the info it was given (retained through the context's callback, if any).
    run_loop_timer entry = {timer, callout, context != NULL ? context->info : NULL, 0, 0};
    lock_timers();
    run_loop_timer *stale = find_timer(timer);  // an address a freed timer had
    if (stale != NULL) stale->timer = NULL;
    run_loop_timers[run_loop_timer_next++ % RUN_LOOP_TIMER_CAPACITY] = entry;
    unlock_timers();
    return timer;
}

/// A copy of `timer`'s entry when it was made in a run; `added` and `fires` updated first when
/// asked (>= 0).
static int timer_entry(void *timer, run_loop_timer *copy, int mark_added, int mark_fires) {
    lock_timers();
    run_loop_timer *entry = find_timer(timer);
    if (entry != NULL) {
        if (mark_added >= 0) entry->added = mark_added;
        if (mark_fires >= 0) entry->fires = mark_fires;
        *copy = *entry;
    }
    unlock_timers();
    return entry != NULL;
}

// MARK: Firing

/// What a kept handler holds: the timer (retained) and its callout.
typedef struct fire_context {
    void *timer;
    timer_callout_fn callout;
    void *info;
} fire_context;

typedef void (*set_fire_date_fn)(void *, double);
typedef void (*invalidate_fn)(void *);

void CFRunLoopTimerInvalidate(void *timer);

/// Fires a timer on the simulated main queue, as the run loop does: the callout, if the timer is
/// still valid; then a timer that does not repeat is invalidated, and a repeating one's fire date
/// moves past now (what `fireDate` reads; the engine keeps the same schedule).
static void fire(void *context) {
    fire_context *fired = context;
    CF(CFRunLoopTimerIsValid, timer_bool_fn);
    CF(CFRunLoopTimerGetInterval, timer_double_fn);
    CF(CFRunLoopTimerGetNextFireDate, timer_double_fn);
    CF(CFAbsoluteTimeGetCurrent, absolute_now_fn);
    if (!cf_CFRunLoopTimerIsValid(fired->timer)) return;
    double interval = cf_CFRunLoopTimerGetInterval(fired->timer);
    fired->callout(fired->timer, fired->info);
    if (!cf_CFRunLoopTimerIsValid(fired->timer)) return;
    if (interval <= 0) {
        CFRunLoopTimerInvalidate(fired->timer);
        return;
    }
    double next = cf_CFRunLoopTimerGetNextFireDate(fired->timer);
    double now = cf_CFAbsoluteTimeGetCurrent();
    if (next <= now) {
        BGSIM_NEXT(CFRunLoopTimerSetNextFireDate, set_fire_date_fn);
        next_CFRunLoopTimerSetNextFireDate(fired->timer, next + interval * ((double)(long long)((now - next) / interval) + 1));
    }
}

static void release_fire_context(void *context) {
    fire_context *fired = context;
    // Forgotten first: a last release invalidates the timer, which must not reach the run again.
    lock_timers();
    run_loop_timer *entry = find_timer(fired->timer);
    if (entry != NULL) entry->timer = NULL;
    unlock_timers();
    CF(CFRelease, release_fn);
    cf_CFRelease(fired->timer);
    free(fired);
}

// MARK: The main run loop

/// Whether `run_loop` is the main run loop as the calling run's code sees it.
static int is_main_run_loop(void *run_loop) {
    CF(CFRunLoopGetMain, get_run_loop_fn);
    CF(CFRunLoopGetCurrent, get_run_loop_fn);
    if (run_loop == NULL || cf_CFRunLoopGetMain == NULL) return 0;
    if (run_loop == cf_CFRunLoopGetMain()) return 1;
    // The simulated main thread's current run loop is its carrier's: the main one in the run.
    return run_loop == cf_CFRunLoopGetCurrent() && _CFIsMainThread();
}

/// Whether the simulated main run loop runs `mode` (the default and common modes).
static int is_running_mode(const void *mode) {
    static void *default_slot, *common_slot;
    CF(CFEqual, equal_fn);
    const void *const *default_mode = bgsim_default_symbol(&default_slot, "kCFRunLoopDefaultMode");
    const void *const *common_modes = bgsim_default_symbol(&common_slot, "kCFRunLoopCommonModes");
    if (mode == NULL || default_mode == NULL || common_modes == NULL) return 0;
    return mode == *default_mode || mode == *common_modes || cf_CFEqual(mode, *default_mode) ||
           cf_CFEqual(mode, *common_modes);
}

/// Hands a timer operation on `timer` (an entry) to the engine: 1 when the run took it.
static int hand_over_timer(void *timer, const char *function, int32_t operation, bgsim_dispatch_call *call) {
    call->source = timer;
    return bgsim_real_dispatch_hand_over_main(function, operation, call);
}

/// The schedule of `timer` as the engine takes it: its next fire date in virtual time (-1 when
/// it does not fire), its interval in microseconds (-1: once).
static void set_schedule(bgsim_dispatch_call *call, void *timer, int fires) {
    CF(CFRunLoopTimerGetInterval, timer_double_fn);
    CF(CFRunLoopTimerGetNextFireDate, timer_double_fn);
    double interval = cf_CFRunLoopTimerGetInterval(timer);
    call->deadline = fires ? bgsim_virtual_instant_from_wall(cf_CFRunLoopTimerGetNextFireDate(timer) + CF_ABSOLUTE_TIME_1970) : -1;
    // CoreFoundation repeats an interval above 0; a tiny one fires every microsecond at most.
    call->interval = interval > 0 ? (interval < 1e-6 ? 1 : (int64_t)(interval * 1e6 + 0.5)) : -1;
}

typedef void (*add_timer_fn)(void *, void *, const void *);

void CFRunLoopAddTimer(void *run_loop, void *timer, const void *mode) {
    BGSIM_NEXT(CFRunLoopAddTimer, add_timer_fn);
    if (bgsim_run_mark_get() == NULL || timer == NULL) {
        next_CFRunLoopAddTimer(run_loop, timer, mode);
        return;
    }
    if (!is_main_run_loop(run_loop)) return;  // another thread's loop: never fires (see the top)
    CF(CFRunLoopTimerIsValid, timer_bool_fn);
    if (!cf_CFRunLoopTimerIsValid(timer)) return;  // as the run loop does: an invalid timer is not added
    int fires = is_running_mode(mode);
    run_loop_timer entry;
    if (!timer_entry(timer, &entry, -1, -1)) {
        // Made outside the run: its callout is unknown. Reported as a source the run cannot
        // start (an escape) when the run reports those; else let through.
        bgsim_dispatch_call call = {0};
        if (!hand_over_timer(timer, "CFRunLoopAddTimer", BGSIM_DISPATCH_SOURCE, &call)) {
            next_CFRunLoopAddTimer(run_loop, timer, mode);
        }
        return;
    }
    if (entry.added) {
        // Added again (another mode): it fires once in a mode the main run loop runs.
        if (fires && !entry.fires) {
            (void)timer_entry(timer, &entry, -1, 1);
            bgsim_dispatch_call call = {0};
            set_schedule(&call, timer, 1);
            (void)hand_over_timer(timer, "CFRunLoopAddTimer", BGSIM_DISPATCH_TIMER_SET, &call);
        }
        return;
    }
    CF(CFRetain, retain_fn);
    fire_context *fired = malloc(sizeof *fired);
    if (fired == NULL) abort();
    *fired = (fire_context){(void *)cf_CFRetain(timer), entry.callout, entry.info};
    bgsim_dispatch_call handler = {0};
    handler.work = fire;
    handler.context = fired;
    handler.dispose = release_fire_context;
    (void)hand_over_timer(timer, "CFRunLoopAddTimer", BGSIM_DISPATCH_TIMER_HANDLER, &handler);
    if (!handler.kept) release_fire_context(fired);
    bgsim_dispatch_call schedule = {0};
    set_schedule(&schedule, timer, fires);
    (void)hand_over_timer(timer, "CFRunLoopAddTimer", BGSIM_DISPATCH_TIMER_SET, &schedule);
    bgsim_dispatch_call start = {0};
    if (hand_over_timer(timer, "CFRunLoopAddTimer", BGSIM_DISPATCH_TIMER_RESUME, &start)) {
        (void)timer_entry(timer, &entry, 1, fires);
    } else {
        next_CFRunLoopAddTimer(run_loop, timer, mode);
    }
}

void CFRunLoopTimerSetNextFireDate(void *timer, double fire_date) {
    BGSIM_NEXT(CFRunLoopTimerSetNextFireDate, set_fire_date_fn);
    next_CFRunLoopTimerSetNextFireDate(timer, fire_date);
    run_loop_timer entry;
    if (bgsim_run_mark_get() == NULL || !timer_entry(timer, &entry, -1, -1) || !entry.added || !entry.fires) return;
    CF(CFRunLoopTimerIsValid, timer_bool_fn);
    if (!cf_CFRunLoopTimerIsValid(timer)) return;
    bgsim_dispatch_call call = {0};
    set_schedule(&call, timer, 1);
    (void)hand_over_timer(timer, "CFRunLoopTimerSetNextFireDate", BGSIM_DISPATCH_TIMER_SET, &call);
}

void CFRunLoopTimerInvalidate(void *timer) {
    BGSIM_NEXT(CFRunLoopTimerInvalidate, invalidate_fn);
    run_loop_timer entry;
    if (bgsim_run_mark_get() != NULL && timer_entry(timer, &entry, -1, -1) && entry.added) {
        (void)timer_entry(timer, &entry, 0, 0);
        bgsim_dispatch_call call = {0};
        (void)hand_over_timer(timer, "CFRunLoopTimerInvalidate", BGSIM_DISPATCH_TIMER_CANCEL, &call);
    }
    next_CFRunLoopTimerInvalidate(timer);
}

// MARK: Timer(timeInterval:repeats:block:)

// swift-corelibs-foundation's `Timer(timeInterval:repeats:block:)` passes `Date()` as the first
// fire date, so the timer fires as soon as it is added (swift-corelibs-foundation issue 4712);
// Darwin's, which iOS code is written for, first fires `interval` later (less than 0.1 ms counts
// as 0.1 ms, Apple's documentation says). Inside a run the initializer is this function: it
// calls the designated `init(fire:interval:repeats:block:)` with the date Darwin's uses. Both
// are Swift functions of Foundation: `swiftcall` with the metatype as `self`; the block (a
// closure's function and context, owned) is handed on as received, and `Date` is its
// `timeIntervalSinceReferenceDate`. Outside runs Foundation's own runs.
#if defined(__x86_64__) || defined(__aarch64__)
typedef __attribute__((swiftcall)) void *(*timer_interval_init_fn)(double, _Bool, void *, void *,
                                                                   void *__attribute__((swift_context)));
typedef __attribute__((swiftcall)) void *(*timer_fire_init_fn)(double, double, _Bool, void *, void *,
                                                               void *__attribute__((swift_context)));

#define TIMER_INTERVAL_INIT "$s10Foundation5TimerC12timeInterval7repeats5blockACSd_SbyACYbctcfC"
#define TIMER_FIRE_INIT "$s10Foundation5TimerC4fire8interval7repeats5blockAC0A10Essentials4DateV_SdSbyACYbctcfC"

__attribute__((swiftcall)) void *timer_interval_init(double interval, _Bool repeats, void *block, void *captures,
                                                     void *__attribute__((swift_context)) metatype) __asm__(TIMER_INTERVAL_INIT);

__attribute__((swiftcall)) void *timer_interval_init(double interval, _Bool repeats, void *block, void *captures,
                                                     void *__attribute__((swift_context)) metatype) {
    static void *fire_slot;
    timer_fire_init_fn fire_init = (timer_fire_init_fn)bgsim_default_symbol(&fire_slot, TIMER_FIRE_INIT);
    CF(CFAbsoluteTimeGetCurrent, absolute_now_fn);
    if (bgsim_run_mark_get() == NULL || fire_init == NULL || cf_CFAbsoluteTimeGetCurrent == NULL) {
        static void *next_slot;
        timer_interval_init_fn next = (timer_interval_init_fn)bgsim_next_symbol(&next_slot, TIMER_INTERVAL_INIT);
        return next(interval, repeats, block, captures, metatype);
    }
    double first = cf_CFAbsoluteTimeGetCurrent() + (interval > 0.0001 ? interval : 0.0001);
    return fire_init(first, interval, repeats, block, captures, metatype);
}
#endif

// MARK: Blocks

typedef void (*perform_block_fn)(void *, const void *, void *);

void CFRunLoopPerformBlock(void *run_loop, const void *modes, void *block) {
    BGSIM_NEXT(CFRunLoopPerformBlock, perform_block_fn);
    if (bgsim_run_mark_get() != NULL && block != NULL) {
        if (!is_main_run_loop(run_loop)) return;  // another thread's loop: never runs (see the top)
        bgsim_dispatch_call call = {0};
        call.block = block;
        if (bgsim_real_dispatch_hand_over_main("CFRunLoopPerformBlock", BGSIM_DISPATCH_ASYNC, &call)) return;
    }
    next_CFRunLoopPerformBlock(run_loop, modes, block);
}

#endif
