public import BackgroundTaskKit
public import DeterministicSimulation

/// `ExecutionHost`'s synchronisation on the simulated threads of the run: app code that takes
/// `host.makeLock`, `host.makeSemaphore`, `host.makeShared` and `queue.sync` runs here unchanged.
///
/// ```swift
/// let tasks = app.makeLock(name: "outbox tasks")        // a SimulatedLock of the run
/// app.backgroundQueue.async { tasks.withLock { pending.removeAll() } }
/// ```
///
/// Contract: locks and semaphores are the scheduler's (``SimulatedLock``, ``SimulatedSemaphore``):
/// with threads, waiting blocks only the calling simulated thread, taking and releasing are
/// scheduling points, and a wait nothing can end stops the run with `no-deadlock`; without
/// threads they do nothing (jobs run one at a time to completion). Making one is not a
/// scheduling point. A shared variable's every read and write is one
/// (``SharedStateAccess``), and so is ``schedulingPoint()``.
extension SimulatedApplication {
    public func makeLock(name: String) -> any HostLock {
        scheduler.makeLock(name: name)
    }

    public func makeSemaphore(name: String, value: Int) -> any HostSemaphore {
        SimulatedHostSemaphore(scheduler.makeSemaphore(name: name, value: value))
    }

    public func makeShared<Value: Sendable>(name: String, initialValue: Value) -> SharedState<Value> {
        SharedState(name: name, initialValue: initialValue, observer: SharedStateRecorder(device: device))
    }
}

/// The engine's lock already has `HostLock`'s one method, with its contract.
extension SimulatedLock: HostLock {}

/// A ``SimulatedSemaphore`` seen as a `HostSemaphore` (whose `wait()` returns nothing: a
/// simulated wait that fails fast, at teardown, just returns).
final class SimulatedHostSemaphore: HostSemaphore {
    let semaphore: SimulatedSemaphore

    init(_ semaphore: SimulatedSemaphore) { self.semaphore = semaphore }

    func wait() { semaphore.wait() }

    func wait(timeout: Duration) -> Bool { semaphore.wait(timeout: VirtualDuration(timeout)) }

    func signal() { semaphore.signal() }
}
