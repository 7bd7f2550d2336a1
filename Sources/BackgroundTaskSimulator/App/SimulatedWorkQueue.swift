public import BackgroundTaskKit
import DeterministicSimulation

/// A ``WorkQueue`` backed by one queue of the run's ``Scheduler``.
///
/// ```swift
/// app.mainQueue.asyncAfter(.seconds(2)) { finishUpload() }   // runs at now + 2 s virtual time
/// ```
///
/// Contract: work runs on the simulated queue, in virtual time, on the run's thread. The queue
/// belongs to one process: when the process is suspended its queues are frozen, and when it dies
/// they stay frozen forever, so no code of a dead process ever runs (B1.1, B3).
public final class SimulatedWorkQueue: WorkQueue, @unchecked Sendable {
    // @unchecked: a run is confined to one thread; the simulator never shares a run's objects.
    public let label: String
    let id: QueueID
    private unowned let scheduler: Scheduler

    init(label: String, id: QueueID, scheduler: Scheduler) {
        self.label = label
        self.id = id
        self.scheduler = scheduler
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        scheduler.async(on: id, work)
    }

    public func asyncAfter(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        scheduler.asyncAfter(VirtualDuration(delay), on: id, work)
    }
}
