@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Swift's main and default executors for the whole process, chosen by the engine before any
/// task exists, so that app code written with plain Swift concurrency (`@MainActor`,
/// `MainActor.run`, `Task {}`, `Task.sleep`) runs inside a simulation as written: on the run's
/// simulated threads and virtual time, deterministically.
///
/// ```swift
/// @MainActor final class Uploader {                  // app code: no simulator types
///     func didEnterBackground() {
///         Task {                                     // inherits the main actor
///             try? await Task.sleep(for: .seconds(2))  // virtual time inside a run
///             await MainActor.run { self.finish() }    // a job of the run's main queue
///         }
///     }
/// }
/// ```
///
/// How: Swift 6.3 lets a program choose its executors (`ExecutorFactory`, SPI
/// `ExperimentalCustomExecutors`, pitched as "Custom main and global executors"). A load-time
/// constructor in SimulationRuntimeShims calls ``install()``, which wraps the platform's own
/// executors in ``ProcessMainExecutor`` and ``ProcessDefaultExecutor`` and makes them the
/// process's. Each asks ``RunThreadMarker`` on every enqueue: on a thread running a run's job the
/// job becomes a job of that run (a main-actor job on the run's simulated main queue, any other
/// on its concurrent tasks queue); on every other thread it goes to the platform executor
/// unchanged, so the rest of the process (the test runner, other tests) runs as before.
///
/// Contract:
/// - Installed once, at load, before `main` (never later: replacing the executors while tasks
///   run would race with the runtime's reads of them). ``isInstalled`` says whether it happened.
/// - `BGSIM_PROCESS_EXECUTORS=off` in the environment keeps the platform's executors (the
///   fallback if this experimental API changes): real `@MainActor` and `Task {}` jobs of a run
///   are then reported as escapes, as before.
/// - Parallel runs in one process each get their own jobs; the main actor is one isolation
///   domain per run, not per process (see "The main actor" in the Async Under Simulation
///   article for what that means for `static` main-actor state).
public enum ProcessExecutors {
    /// The installed executors; nil until ``install()`` ran (or when it was switched off).
    /// Written once by the load-time constructor, before any other thread exists.
    nonisolated(unsafe) private(set) static var installedMain: AnyObject?
    nonisolated(unsafe) private(set) static var installedDefault: AnyObject?

    /// Whether the process's main and default executors are the engine's.
    package static var isInstalled: Bool { installedMain != nil }

    /// Wraps the platform's executors and makes the wrappers the process's; registers the
    /// virtual clocks. Called by SimulationRuntimeShims' load-time constructor.
    static func install() {
        VirtualClocks.register()
        if let setting = getenv("BGSIM_PROCESS_EXECUTORS"), String(cString: setting) == "off" { return }
        guard installedMain == nil else { return }
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
            let main = ProcessMainExecutor(platform: MainActor.executor)
            let fallback = ProcessDefaultExecutor(platform: Task.defaultExecutor)
            installedMain = main
            installedDefault = fallback
            _createExecutors(factory: SimulationExecutorFactory.self)
        }
    }
}

/// The factory Swift asks for the process's executors.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
enum SimulationExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor {
        // Set by install() before it asks Swift to create the executors.
        unsafeDowncast(ProcessExecutors.installedMain!, to: ProcessMainExecutor.self)
    }
    static var defaultExecutor: any TaskExecutor {
        unsafeDowncast(ProcessExecutors.installedDefault!, to: ProcessDefaultExecutor.self)
    }
}

/// Loaded-time entry point for SimulationRuntimeShims' constructor (a weak C reference).
@_cdecl("simulation_install_process_executors")
func installProcessExecutorsAtLoad() {
    ProcessExecutors.install()
}

/// The process's main executor: the real main actor's jobs from a run go to the run's
/// simulated main queue; all others to the platform's main executor.
///
/// Contract: see ``ProcessExecutors``. Isolation checks (`MainActor.assumeIsolated`, a
/// `@MainActor` closure's precondition) on a thread running a run pass exactly when that thread
/// runs a job of the run's simulated main queue; elsewhere they are the platform's.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
final class ProcessMainExecutor: MainExecutor, SchedulingExecutor, @unchecked Sendable {
    // @unchecked Sendable: immutable; the platform executor is Sendable.
    let platform: any MainExecutor

    init(platform: any MainExecutor) {
        self.platform = platform
    }

    func run() throws { try platform.run() }
    func runUntil(_ condition: () -> Bool) throws { try platform.runUntil(condition) }
    func stop() { platform.stop() }
    var isMainExecutor: Bool { true }

    func enqueue(_ job: consuming ExecutorJob) {
        ProcessExecutors.route(UnownedJob(job), what: "a main-actor job", to: platform) {
            $0.routeMainActorJob($1, on: self)
        }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        ProcessExecutors.routeWake(UnownedJob(job), at: instant, tolerance: tolerance, clock: clock,
                                   platforms: [platform, ProcessExecutors.platformDefault.platform])
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        enqueue(job, at: clock.now.advanced(by: delay), tolerance: tolerance, clock: clock)
    }

    func checkIsolated() {
        if let scheduler = RunThreadMarker.current {
            precondition(scheduler.isOnSimulatedMainThread, ProcessMainExecutor.notIsolated)
        } else {
            platform.checkIsolated()
        }
    }

    func isIsolatingCurrentContext() -> Bool? {
        if let scheduler = RunThreadMarker.current { return scheduler.isOnSimulatedMainThread }
        return platform.isIsolatingCurrentContext()
    }

    static let notIsolated =
        "not isolated to the main actor: inside a simulation, main-actor code must run as a job of the simulated main queue "
        + "(a lifecycle callback, an expiration handler, a main-actor task); this code runs elsewhere"
}

/// The process's default (global concurrent) executor: a run's jobs go to the run's concurrent
/// tasks queue; all others to the platform's default executor. Sleeps (`Task.sleep`) of a run
/// wake on the run's virtual time.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
final class ProcessDefaultExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    // @unchecked Sendable: immutable; the platform executor is Sendable.
    let platform: any TaskExecutor

    init(platform: any TaskExecutor) {
        self.platform = platform
    }

    func enqueue(_ job: consuming ExecutorJob) {
        ProcessExecutors.route(UnownedJob(job), what: "a task", to: platform) {
            $0.routeDefaultJob($1, on: self)
        }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        ProcessExecutors.routeWake(UnownedJob(job), at: instant, tolerance: tolerance, clock: clock,
                                   platforms: [platform])
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        enqueue(job, at: clock.now.advanced(by: delay), tolerance: tolerance, clock: clock)
    }
}

@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
extension ProcessExecutors {
    /// The installed default executor (its platform executor schedules sleeps for a platform
    /// main executor that cannot).
    static var platformDefault: ProcessDefaultExecutor {
        unsafeDowncast(installedDefault!, to: ProcessDefaultExecutor.self)
    }

    /// One enqueue of either executor: into the run on a thread running one (`intoRun` says
    /// whether the run took it), kept out when it is a run's task coming back from a real
    /// thread, else to `platform`.
    static func route(_ job: UnownedJob, what: String, to platform: any Executor,
                      intoRun: (Scheduler, UnownedJob) -> Bool) {
        if let scheduler = RunThreadMarker.current {
            if intoRun(scheduler, job) { return }
        } else if RunJobStamps.keepsOut(job, what: what) {
            return
        }
        platform.enqueue(ExecutorJob(job))
    }

    /// A sleep's wake-up job: at its virtual deadline on a thread running a run, else to the
    /// first of `platforms` that can schedule.
    static func routeWake<C: Clock>(_ job: UnownedJob, at instant: C.Instant, tolerance: C.Duration?, clock: C,
                                    platforms: [any Executor]) {
        if let scheduler = RunThreadMarker.current, scheduler.scheduleWake(job, at: instant, clock: clock) { return }
        for case let platform as any SchedulingExecutor in platforms {
            platform.enqueue(ExecutorJob(job), at: instant, tolerance: tolerance, clock: clock)
            return
        }
        preconditionFailure("no platform executor can schedule a sleep")
    }
}
