#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationRuntime

/// The Swift runtime's global-executor hooks, installed once per process, so that work a run
/// sends to Swift's real executors is caught on the thread that sends it: recorded as an
/// ``AsyncEscape`` of that run and, where possible, kept inside the run.
///
/// ```swift
/// _ = GlobalExecutorHooks.installed   // Scheduler.enableAsync does this
/// ```
///
/// The runtime (`libswift_Concurrency`) exports hook variables, `swift_task_enqueueGlobal_hook`
/// and friends, that it calls instead of its own implementation when set, passing that
/// implementation as the last argument. They are data symbols, found with `dlsym` (Swift cannot
/// declare an external variable without a C module, and `@_silgen_name` names functions only).
/// The hooks are declared `SWIFT_CC(swift)` with integer and pointer arguments only and no
/// context, self or error register, which on x86-64 and arm64 pass in the same registers as the
/// C convention, so `@convention(c)` functions serve (tested on Swift 6.3, Linux x86-64).
///
/// Each hook asks ``RunThreadMarker`` whether the calling thread runs a run's job. If not (every
/// ordinary task of the process, the test runner's own), it calls the hook that was installed
/// before, or the runtime's implementation: one thread-local load of overhead. If so:
/// - a global or main-executor enqueue goes the runtime's way to the process's executors when
///   they are the engine's (``ProcessExecutors``), which keep it in the run; without them (the
///   fallback) it is recorded as an escape, a global job is scheduled on the run's task queue
///   instead, and a main-actor job goes on to the real main thread;
/// - a delayed enqueue is scheduled after the same delay of virtual time;
/// - a deadline enqueue on `ContinuousClock` or `SuspendingClock` is scheduled at the same
///   virtual instant (those clocks read virtual time inside a run: ``VirtualClocks``); on any
///   other clock it is recorded and scheduled due now.
///
/// Contract: installing is idempotent and thread-safe (a lazy global); the hooks stay for the
/// life of the process. Where `dlsym` finds no hook variable (another runtime), nothing is
/// installed and ``installed`` is false: runs then cannot see escapes, only their symptoms.
enum GlobalExecutorHooks {
    typealias Job = UnsafeMutableRawPointer
    typealias Original = @convention(c) (Job) -> Void
    typealias Hook = @convention(c) (Job, Original) -> Void
    typealias DelayOriginal = @convention(c) (UInt64, Job) -> Void
    typealias DelayHook = @convention(c) (UInt64, Job, DelayOriginal) -> Void
    typealias DeadlineOriginal = @convention(c) (Int64, Int64, Int64, Int64, Int32, Job) -> Void
    typealias DeadlineHook = @convention(c) (Int64, Int64, Int64, Int64, Int32, Job, DeadlineOriginal) -> Void

    /// The runtime's hook variables (the runtime room's `HookVariable`, found by name).
    static let globalVariable = HookVariable<Hook>(named: "swift_task_enqueueGlobal_hook")
    static let delayVariable = HookVariable<DelayHook>(named: "swift_task_enqueueGlobalWithDelay_hook")
    static let deadlineVariable = HookVariable<DeadlineHook>(named: "swift_task_enqueueGlobalWithDeadline_hook")
    static let mainVariable = HookVariable<Hook>(named: "swift_task_enqueueMainExecutor_hook")

    /// The values the hook variables held before ours, which ours call outside runs.
    struct Previous: Sendable {
        var global: Hook?
        var delay: DelayHook?
        var deadline: DeadlineHook?
        var main: Hook?
    }

    /// Read once, before ours are written (a lazy global: initialised once, and every later read
    /// sees it complete).
    static let previous = Previous(global: globalVariable.value, delay: delayVariable.value,
                                   deadline: deadlineVariable.value, main: mainVariable.value)

    /// Installs the hooks once; false if the runtime has no hook variables.
    static let installed: Bool = {
        guard globalVariable.exists, delayVariable.exists, deadlineVariable.exists, mainVariable.exists else {
            return false
        }
        _ = previous
        globalVariable.store(globalHook)
        delayVariable.store(delayHook)
        deadlineVariable.store(deadlineHook)
        mainVariable.store(mainHook)
        return true
    }()

    /// The run's task executor takes over a runtime job (same layout: one job pointer).
    static func taskJob(_ job: Job) -> UnownedJob {
        unsafeBitCast(job, to: UnownedJob.self)
    }

    static let globalHook: Hook = { job, original in
        guard let scheduler = RunThreadMarker.current, !ProcessExecutors.isInstalled else {
            // Outside runs, or with the engine's executors: the runtime's own path, which
            // reaches ProcessDefaultExecutor (it routes a run's job into the run).
            if let previous = previous.global { previous(job, original) } else { original(job) }
            return
        }
        let state = scheduler.asyncStateMakingIfNeeded
        state.record(.globalExecutor, scheduler: scheduler)
        if let executor = state.taskExecutor {
            executor.schedule(taskJob(job))
        } else {
            original(job)
        }
    }

    static let delayHook: DelayHook = { delay, job, original in
        guard let scheduler = RunThreadMarker.current else {
            if let previous = previous.delay { previous(delay, job, original) } else { original(delay, job) }
            return
        }
        let state = scheduler.asyncStateMakingIfNeeded
        if !ProcessExecutors.isInstalled { state.record(.realSleep(nanoseconds: delay), scheduler: scheduler) }
        if let executor = state.taskExecutor {
            executor.schedule(taskJob(job), after: VirtualDuration(.nanoseconds(delay)))
        } else {
            original(delay, job)
        }
    }

    static let deadlineHook: DeadlineHook = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
        guard let scheduler = RunThreadMarker.current else {
            if let previous = previous.deadline {
                previous(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original)
            } else {
                original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
            }
            return
        }
        let state = scheduler.asyncStateMakingIfNeeded
        guard let executor = state.taskExecutor else {
            state.record(.realClockSleep(clock: clockName(clock)), scheduler: scheduler)
            original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
            return
        }
        // Swift's clock ids: 1 continuous, 2 suspending. Inside a run both read the run's virtual
        // time (VirtualClocks), so the deadline is a virtual instant.
        if VirtualClocks.isSupported, clock == 1 || clock == 2 {
            let deadline = Duration.seconds(seconds) + .nanoseconds(nanoseconds)
            let delay = VirtualDuration(deadline) - (scheduler.now - .zero)
            executor.schedule(taskJob(job), after: max(.zero, delay))
        } else {
            state.record(.realClockSleep(clock: clockName(clock)), scheduler: scheduler)
            executor.schedule(taskJob(job))
        }
    }

    /// The clock a deadline enqueue names, for an escape's message.
    static func clockName(_ id: Int32) -> String {
        switch id {
        case 1: "ContinuousClock"  // tidy: allow a clock's name in a message
        case 2: "SuspendingClock"  // tidy: allow a clock's name in a message
        default: "clock #\(id)"
        }
    }

    static let mainHook: Hook = { job, original in
        if let scheduler = RunThreadMarker.current, !ProcessExecutors.isInstalled {
            scheduler.asyncStateMakingIfNeeded.record(.realMainActor, scheduler: scheduler)
        }
        // With the engine's executors, the runtime's path reaches ProcessMainExecutor, which
        // keeps a run's main-actor job in the run.
        if let previous = previous.main { previous(job, original) } else { original(job) }
    }
}
