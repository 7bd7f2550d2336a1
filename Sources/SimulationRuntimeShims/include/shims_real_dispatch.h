// Real Dispatch inside a run (Linux): `dispatch_async`, `dispatch_sync`, `dispatch_after` and
// friends, called on a marked thread, are handed to the engine, which runs the work on the run's
// simulated queues (or reports it), and are not made: the block would run on a real thread,
// outside the simulation (dispatch_calls.c; what a queue is, dispatch_queues.c; a call the run
// keeps, kept_dispatch_calls.c; sources and timers, dispatch_sources.c; `concurrentPerform`,
// concurrent_perform.c; `Thread.isMainThread`, `getSpecific` and `dispatchPrecondition`,
// current_queue.c). Part of SimulationRuntimeShims.h, the module's umbrella header.
#ifndef SIMULATION_RUNTIME_SHIMS_REAL_DISPATCH_H
#define SIMULATION_RUNTIME_SHIMS_REAL_DISPATCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a call to a real Dispatch queue asks for (``bgsim_dispatch_call``'s `operation`).
enum {
    /// `dispatch_async`, `dispatch_barrier_async`, `dispatch_group_async` and their `_f` forms.
    BGSIM_DISPATCH_ASYNC = 1,
    /// `dispatch_after` and `dispatch_after_f`: `deadline` says when.
    BGSIM_DISPATCH_AFTER = 2,
    /// `dispatch_sync`, `dispatch_barrier_sync` and their `_f` forms: the caller waits for the work.
    BGSIM_DISPATCH_SYNC = 3,
    /// `dispatch_group_notify` and `dispatch_group_notify_f`: the work is sent to the queue
    /// when `group` is empty.
    BGSIM_DISPATCH_NOTIFY = 4,
    /// Not a call that sends work: `dispatch_group_leave` on `group` (a notification waiting for
    /// it may be due). `queue` is null; the observer's answer is ignored.
    BGSIM_DISPATCH_GROUP_LEFT = 5,
    /// `dispatch_resume` or `dispatch_activate` of a Dispatch source made inside a run that is
    /// not a timer (a file descriptor's, a signal's, a data source): its handler would run on a
    /// real thread. `source` is the source.
    BGSIM_DISPATCH_SOURCE = 6,
    /// `dispatch_assert_queue` (`dispatchPrecondition(condition: .onQueue(q))`) and its barrier
    /// form: whether the caller runs on `queue`. The observer sets `violated` when it does not.
    BGSIM_DISPATCH_ASSERT_ON = 7,
    /// `dispatch_assert_queue_not` (`.notOnQueue(q)`): `violated` when the caller runs on it.
    BGSIM_DISPATCH_ASSERT_NOT_ON = 8,
    /// A timer source made inside a run (`source`; `queue` its target): `dispatch_source_set_timer`
    /// (`deadline` the first fire, `interval` microseconds, -1 for once), its event and cancel
    /// handlers (`block`), `resume`, `activate` (`BGSIM_DISPATCH_TIMER_ACTIVATE`), `suspend`,
    /// `cancel`, and `testcancel` (the observer answers in `result`). A `resume` with no
    /// suspension to undo is Dispatch's over-resume: the observer sets `violated`, and the shim
    /// stops the process as Dispatch does. A Foundation run-loop timer added to the main run loop
    /// inside a run comes as the same operations (run_loop_timers.c): `source` is the
    /// `CFRunLoopTimer`, `queue` the main queue, its handler a function (`work`), its schedule
    /// from its fire date, `resume` when added, `cancel` when invalidated.
    BGSIM_DISPATCH_TIMER_SET = 9,
    BGSIM_DISPATCH_TIMER_HANDLER = 10,
    BGSIM_DISPATCH_TIMER_CANCEL_HANDLER = 11,
    BGSIM_DISPATCH_TIMER_RESUME = 12,
    BGSIM_DISPATCH_TIMER_SUSPEND = 13,
    BGSIM_DISPATCH_TIMER_CANCEL = 14,
    BGSIM_DISPATCH_TIMER_TEST_CANCEL = 15,
    /// Not Dispatch: Foundation's `Thread.isMainThread` (`_CFIsMainThread`) on a run's thread,
    /// answered in `result` (1 on the run's simulated main thread).
    BGSIM_DISPATCH_IS_MAIN_THREAD = 16,
    /// Not a call that sends work: `dispatch_queue_create` or `_with_target` made `queue` (not
    /// resolved to a target) inside a run; the observer forgets any route it made for an earlier
    /// queue at that address. Its answer is ignored.
    BGSIM_DISPATCH_QUEUE_MADE = 17,
    /// Not a call that sends work: `dispatch_get_specific` (`DispatchQueue.getSpecific(key:)`) on
    /// a run's thread. The observer answers in `result` the queue (a call's `origin`; -1: the
    /// main queue; 0: none) whose block runs on the calling thread, in a job of it or inside a
    /// `sync` onto it; the shim then reads the key from that queue and the queues it targets, as
    /// Dispatch does.
    BGSIM_DISPATCH_CURRENT_QUEUE = 18,
    /// `dispatch_activate` of a timer source made inside a run (with the timer operations above):
    /// starts an inactive timer, nothing on an active one.
    BGSIM_DISPATCH_TIMER_ACTIVATE = 19,
    /// `dispatch_release` of the app's last reference to a timer source made inside a run (the
    /// shim keeps one of its own, so the source is never freed). On a device the release cancels
    /// an active timer (its cancel handler runs) and stops the process when the timer is
    /// suspended or inactive: the observer then answers in `result` 1 (inactive) or 2
    /// (suspended) and sets `violated`.
    BGSIM_DISPATCH_TIMER_RELEASED = 20,
};

/// Which queue runs a call's work (``bgsim_dispatch_call``'s `queueKind`), after following
/// the targets of queues the process made.
enum {
    /// The main queue (or a queue that targets it).
    BGSIM_QUEUE_MAIN = 1,
    /// One of the global (root) queues.
    BGSIM_QUEUE_GLOBAL = 2,
    /// A serial queue the process made (or one that targets it): also any queue the shim did
    /// not see made.
    BGSIM_QUEUE_SERIAL = 3,
    /// A concurrent queue the process made (`attributes: .concurrent`).
    BGSIM_QUEUE_CONCURRENT = 4,
    /// The concurrent queue Foundation makes under an `OperationQueue`: its blocks run one at a
    /// time (dispatch_queues.c, `note_queue`, says why), in no promised order.
    BGSIM_QUEUE_ONE_AT_A_TIME = 5,
};

/// One call that sends work to a real Dispatch queue, made on a thread with a run mark.
typedef struct bgsim_dispatch_call {
    /// The queue that runs the work: the one called, or the serial queue or main queue it
    /// targets.
    void *_Nullable queue;
    /// The label of the queue called ("" when it has none).
    const char *_Nonnull label;
    /// The Dispatch function called, such as "dispatch_async".
    const char *_Nonnull function;
    int32_t operation;
    int32_t queueKind;
    /// 1 for the barrier forms.
    int32_t barrier;
    /// 1 once the block was copied for keeping (``bgsim_dispatch_call_keep``).
    int32_t kept;
    /// Set by the observer when the call breaks Dispatch's contract (a `dispatch_assert_queue`
    /// condition that does not hold, a timer's over-resume): the shim then stops the process
    /// as Dispatch would.
    int32_t violated;
    int32_t reserved;
    /// The work: a block, or a function and its context (the `_f` forms).
    void *_Nullable block;
    void *_Nullable context;
    void (*_Nullable work)(void *_Nullable);
    /// Called with `context` when a kept call is freed (NULL: nothing to release).
    void (*_Nullable dispose)(void *_Nullable);
    /// `dispatch_group_async`: the group, entered before the call was reported and left after
    /// the work runs. `dispatch_group_notify`: the group to wait for (not entered).
    void *_Nullable group;
    /// `dispatch_after`, a timer's first fire: when, as a virtual instant in microseconds (-1: never).
    int64_t deadline;
    /// A timer's interval in microseconds (-1: it fires once).
    int64_t interval;
    /// The timer source of a timer operation.
    void *_Nullable source;
    /// What the observer answers (`dispatch_source_testcancel`, `dispatch_get_specific`).
    int64_t result;
    /// The queue called, before following its targets (a timer's: the queue it was made
    /// with): `DispatchQueue.getSpecific` reads keys from it while the work runs. A kept call
    /// holds it alive (Dispatch's internal reference, as Dispatch's own queued work does).
    void *_Nullable origin;
} bgsim_dispatch_call;

/// Told about each call that sends work to a real Dispatch queue from a thread with a run mark.
/// Returns 1 when the run took the call (it runs the work on a simulated queue, or reported it
/// and keeps it): the work is then not sent to Dispatch. 0 lets the call through.
typedef int (*bgsim_real_dispatch_fn)(void *_Nonnull mark, bgsim_dispatch_call *_Nonnull call);

/// Registers the observer of real Dispatch calls inside runs (Linux: this target defines
/// `dispatch_async`, `dispatch_sync`, `dispatch_after`, `dispatch_group_async`,
/// `dispatch_group_notify`, their barrier and `_f` forms, Dispatch's queue constructors, to
/// know which queues are serial and what they target, the timer source calls,
/// `dispatch_get_specific`, and `dispatch_release` of a run's timer). On a thread with a run
/// mark each of them tells the observer and, when it took the call, does not send the work, which would run
/// outside the simulation; otherwise it calls Dispatch's own. Where the shim is not built
/// nothing is observed.
void bgsim_real_dispatch_register(bgsim_real_dispatch_fn _Nonnull observer);

/// Forgets what the shim remembers of the run `mark` (the Dispatch sources it made), and frees its
/// timers that nothing else holds: called when the run ends, so that the sources of ended runs
/// neither crowd the table, nor match a later run, nor stay in memory.
void bgsim_real_dispatch_run_ended(void *_Nonnull mark);

/// How many timer sources of ended runs the shim has freed in this process (those nothing but
/// the shim held when their run ended; the others stay kept).
uint64_t bgsim_real_dispatch_sources_freed(void);

/// A copy of `call` that outlives it, its block copied (`Block_copy`); free it with
/// ``bgsim_dispatch_call_free``. For work the run runs later.
bgsim_dispatch_call *_Nonnull bgsim_dispatch_call_keep(const bgsim_dispatch_call *_Nonnull call);

/// Runs the call's work on the calling thread, then leaves its group (`dispatch_group_async`).
void bgsim_dispatch_call_run(const bgsim_dispatch_call *_Nonnull call);

/// Frees a kept call: releases its block (and so what the block captured).
void bgsim_dispatch_call_free(bgsim_dispatch_call *_Nonnull call);

/// Frees a kept call that never ran without releasing its block or context: what it captured
/// is never destroyed (a checked continuation among it would print Swift's "leaked its
/// continuation" warning, as a killed process's never does).
void bgsim_dispatch_call_abandon(bgsim_dispatch_call *_Nonnull call);

/// Whether `group` is empty now (`dispatch_group_wait` with `DISPATCH_TIME_NOW`).
int bgsim_dispatch_group_is_empty(void *_Nonnull group);

#ifdef __cplusplus
}
#endif

#endif
