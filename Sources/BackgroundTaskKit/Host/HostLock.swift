/// A mutual-exclusion lock from the host (``ExecutionHost/makeLock(name:)``): a `Mutex` on a
/// device, a lock between simulated threads in the simulator.
///
/// ```swift
/// let tasks = host.makeLock(name: "outbox tasks")
/// tasks.withLock { taskIDs[message] = id }
/// ```
///
/// Contract: `withLock` runs `body` holding the lock and releases it when `body` returns or
/// throws; one thread holds it at a time. It is not recursive: taking it again on the thread
/// that holds it deadlocks (the simulator reports it as `no-deadlock`). Never hold it across a
/// wait for another queue (`sync`, a semaphore) that may need the same lock.
public protocol HostLock: AnyObject, Sendable {
    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result
}

/// A counting semaphore from the host (``ExecutionHost/makeSemaphore(name:value:)``): a
/// `DispatchSemaphore` on a device, a semaphore between simulated threads in the simulator. A
/// `DispatchGroup` wait is one that starts at 0 and is signalled once per finished piece.
///
/// ```swift
/// let uploaded = host.makeSemaphore(name: "upload done", value: 0)
/// host.backgroundQueue.async { upload(); uploaded.signal() }
/// uploaded.wait()   // blocks this thread only
/// ```
///
/// Contract: `wait()` takes a unit, blocking the calling thread until one is available;
/// `signal()` gives one, waking the longest waiter. A wait nothing will signal hangs on a device
/// and stops a simulated run with `no-deadlock`. `wait(timeout:)` gives up once `timeout` has
/// passed (virtual time in the simulator, where the waiting thread is off the CPU meanwhile and
/// never part of a deadlock); a zero or negative timeout only takes a unit that is there.
public protocol HostSemaphore: AnyObject, Sendable {
    /// Takes one unit, blocking until one is available (`DispatchSemaphore.wait()`).
    func wait()
    /// Takes one unit, blocking until one is available or `timeout` has passed, whichever comes
    /// first: `true` if a unit was taken (`DispatchSemaphore.wait(timeout: .now() + timeout) ==
    /// .success`). In the simulator the time is virtual.
    func wait(timeout: Duration) -> Bool
    /// Gives one unit (`DispatchSemaphore.signal()`).
    func signal()
}
