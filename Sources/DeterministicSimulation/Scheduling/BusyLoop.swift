/// A run that kept stepping without ever waiting for time to pass: code that loops without
/// waiting for anything (a retry loop whose `try? await Task.sleep` throws at once once its task
/// is cancelled, a thread that yields until a flag no one sets). Virtual time passes for the app
/// only when a job comes due later or a thread's own sleep ends; a preemption delay the scheduler
/// draws moves the clock but is not a wait of the app's. Such a loop would only end at the run's
/// step limit; on a device it burns the CPU until the system ends the app.
///
/// ```swift
/// scheduler.busyLoopLimit = 10_000
/// if scheduler.run(until: .seconds(600), maxSteps: 1_000_000) == .stepLimit, let loop = scheduler.busyLoop {
///     print(loop)   // "10000 steps at 824.541104s without waiting for time to pass"
/// }
/// ```
///
/// Contract: found at the ``Scheduler/busyLoopLimit``-th step (a job started or a simulated
/// thread resumed) since time last passed for the app; the run then stops as at its step limit.
public struct BusyLoop: Sendable, Equatable, CustomStringConvertible {
    /// The steps taken without waiting when the loop was found.
    public let steps: Int
    /// When time last passed for the app, and the instant of the last step.
    public let from: VirtualTime
    public let to: VirtualTime

    public var description: String {
        // A preemption delay moves the clock, not a wait of the app's: say so when the span shows it.
        from == to
            ? "\(steps) steps at \(from) without waiting for time to pass"
            : "\(steps) steps from \(from) to \(to) without waiting for anything (the clock moved only by "
                + "the scheduler's preemption delays)"
    }
}

extension Scheduler {
    /// The most steps without waiting for time to pass before the run is a busy loop
    /// (``busyLoop``) and stops as at its step limit; `Int.max` (the default) for none. Set
    /// before the run.
    public var busyLoopLimit: Int {
        get { core.busyLoopLimit }
        set { core.busyLoopLimit = max(1, newValue) }
    }

    /// The busy loop the run stopped at, if any (see ``busyLoopLimit``).
    public var busyLoop: BusyLoop? { core.busyLoop }
}
