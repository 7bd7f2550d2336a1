/// The main actor of the simulated app: code isolated to it runs on the run's main queue (the
/// simulated main thread), whichever run the calling thread belongs to.
///
/// ```swift
/// @SimulatedMainActor final class DownloadModel {
///     var finished = 0
///     func finish() { finished += 1 }
/// }
///
/// scheduler.async(on: scheduler.mainQueue) {
///     let model = SimulatedMainActor.assumeIsolated { DownloadModel() }   // a main-queue job
///     Task(executorPreference: scheduler.taskExecutor) {
///         try await scheduler.asyncClock.sleep(for: .seconds(1))
///         await model.finish()                  // hops to the main queue, then back
///     }
/// }
/// ```
///
/// Why not the real `@MainActor`, and why this works per run: see the AsyncUnderSimulation
/// article. In short, the real main actor is one isolation domain per process and parallel runs
/// share the process; this global actor is one type too, but its executor is looked up at every
/// hop from the run the hopping thread is executing (``RunThreadMarker``), so each run's
/// main-actor jobs go to that run's ``SimulationMainExecutor``.
///
/// The rule that follows: state isolated to `@SimulatedMainActor` must belong to one run
/// (instances a run creates). A `static` or global variable isolated to it would be shared by
/// runs executing at once on different threads, which the compiler cannot see.
///
/// Contract: hopping to it (or checking isolation) on a thread that is not running a run with
/// ``Scheduler/enableAsync(taskWidth:mainQueue:)`` traps with a message saying so.
@globalActor
public actor SimulatedMainActor {
    /// The one instance; its executor depends on the calling thread's run.
    public static let shared = SimulatedMainActor()

    private init() {}

    /// The calling thread's run's main executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        Self.currentExecutor().asUnownedSerialExecutor()
    }

    /// Runs `operation` as isolated to the simulated main actor, trapping unless the caller runs
    /// a job of the run's main queue (a lifecycle callback, an expiration handler).
    ///
    /// ```swift
    /// scheduler.async(on: scheduler.mainQueue) {
    ///     SimulatedMainActor.assumeIsolated { model.finish() }
    /// }
    /// ```
    public static func assumeIsolated<T: Sendable>(
        _ operation: @SimulatedMainActor () throws -> T
    ) rethrows -> T {
        shared.preconditionIsolated("SimulatedMainActor.assumeIsolated off the run's main queue")
        // The check above is what makes this call isolated; the cast only drops the attribute.
        return try withoutActuallyEscaping(operation) { isolated in
            try unsafeBitCast(isolated, to: (() throws -> T).self)()
        }
    }

    /// The main executor of the run the calling thread executes.
    static func currentExecutor() -> SimulationMainExecutor {
        guard let scheduler = RunThreadMarker.current else {
            preconditionFailure(
                "@SimulatedMainActor used on a thread that runs no simulation: hop to it only from a run's jobs")
        }
        guard let main = scheduler.asyncState?.mainExecutor else {
            preconditionFailure("@SimulatedMainActor used in a run without Scheduler.enableAsync(taskWidth:mainQueue:)")
        }
        return main
    }
}
