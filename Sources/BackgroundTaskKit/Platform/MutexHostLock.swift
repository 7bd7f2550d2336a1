import Dispatch
import Synchronization

/// The ``HostLock`` of a host whose queues run on OS threads: a `Mutex`.
///
/// ```swift
/// let lock = DispatchExecutionHost().makeLock(name: "cache")
/// lock.withLock { cache.removeAll() }
/// ```
///
/// Contract: as ``HostLock``; the lock is announced to ThreadSanitizer
/// (``Mutex/withCriticalSection(_:)``).
final class MutexHostLock: HostLock {
    /// The name the host was given (for debugging).
    let name: String
    private let mutex = Mutex(())

    init(name: String) { self.name = name }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withCriticalSection { _ in try body() }
    }
}

/// The ``HostSemaphore`` of a host whose queues run on OS threads: a `DispatchSemaphore`.
///
/// ```swift
/// let done = DispatchExecutionHost().makeSemaphore(name: "done", value: 0)
/// ```
final class DispatchHostSemaphore: HostSemaphore {
    /// The name the host was given (for debugging).
    let name: String
    private let semaphore: DispatchSemaphore

    init(name: String, value: Int) {
        self.name = name
        self.semaphore = DispatchSemaphore(value: max(0, value))
    }

    func wait() { semaphore.wait() }

    func wait(timeout: Duration) -> Bool {
        guard timeout > .zero else { return semaphore.wait(timeout: .now()) == .success }
        let (seconds, attoseconds) = timeout.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        let nanoseconds = overflow || sumOverflow ? Int64.max : sum
        return semaphore.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds))) == .success
    }

    func signal() { semaphore.signal() }
}
