import Foundation

/// The one thread every isolated child is started from. Linux sends a child's parent-death
/// signal (``ParentLifeline``, `PR_SET_PDEATHSIG`) when the *thread* that started it ends, not
/// the process: campaign worker threads end after every campaign while their children live on
/// in the pool, so children are started from this thread, which lives as long as the process.
///
/// ```swift
/// let outcome = SpawnThread.shared.perform { Result { () throws(SpawnError) in try spawn() } }
/// ```
///
/// Contract: one job at a time, in the order the lock grants them; ``perform(_:)`` blocks its
/// caller until its job is done. Jobs must be short (a `posix_spawn`): they run under the lock.
package final class SpawnThread: @unchecked Sendable {
    // @unchecked: `job` and `finished` are only touched under `condition`'s lock.
    package static let shared = SpawnThread()

    private let condition = NSCondition()
    private var job: (@Sendable () -> Void)?
    private var finished = false

    private init() {
        let thread = Thread { [unowned self] in serve() }
        thread.name = "isolation-spawner"
        thread.start()
    }

    /// Runs `body` on the spawn thread and returns its result.
    package func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = ResultBox<T>()
        condition.lock()
        defer { condition.unlock() }
        while job != nil || finished { condition.wait() }  // another caller's job is under way
        job = { result.value = body() }
        condition.broadcast()
        while !finished { condition.wait() }
        finished = false
        condition.broadcast()
        return result.value!
    }

    private func serve() -> Never {
        condition.lock()
        while true {
            while job == nil { condition.wait() }
            job?()
            job = nil
            finished = true
            condition.broadcast()
        }
    }
}

/// Carries one job's result from the spawn thread to its caller.
private final class ResultBox<T>: @unchecked Sendable {
    // @unchecked: written by the spawn thread and read by the caller, both under SpawnThread's lock.
    var value: T?
}
