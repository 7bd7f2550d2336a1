/// Why ``Scheduler/run(until:maxSteps:)`` or ``Scheduler/runUntilIdle(maxSteps:)`` returned.
///
/// ```swift
/// switch scheduler.run(until: .seconds(600), maxSteps: 1_000_000) {
/// case .idle: break                    // nothing left to run
/// case .reachedTime: break             // the horizon came first
/// case .stepLimit: reportLivelock()    // the step budget ran out
/// }
/// ```
public enum SchedulerStop: Hashable, Sendable {
    /// Nothing runnable is left: no pending job, or only jobs on frozen queues.
    case idle
    /// The next runnable job is later than the time limit.
    case reachedTime
    /// The step budget ran out while jobs within the limit were still runnable.
    case stepLimit
}
