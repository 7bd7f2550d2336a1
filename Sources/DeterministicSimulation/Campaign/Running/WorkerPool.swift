import Foundation
import Synchronization
import ThreadSanitizerSupport

/// Real worker threads for campaigns: the one place the engine uses threads. Simulation code
/// never does; each run builds its own world on whichever worker claims it, and results are
/// combined by run index, so the thread count changes speed, never results.
///
/// ```swift
/// WorkerPool.run(jobs: 4, tick: { showProgress() }) { worker in
///     while let item = queue.claim() { process(item) }
/// }
/// ```
enum WorkerPool {
    /// Runs `work(workerIndex)` on `jobs` new threads and waits for all of them, calling `tick`
    /// on the calling thread every `tickSeconds` meanwhile.
    ///
    /// - Complexity: one thread per job; 8 MiB stacks (simulated runs may recurse).
    static func run(jobs: Int, tickSeconds: Double = 0.25, tick: () -> Void = {},
                    work: @escaping @Sendable (Int) -> Void) {
        let finished = Finished(remaining: jobs)
        for worker in 0..<jobs {
            let thread = Thread {
                work(worker)
                finished.done()
            }
            thread.name = "campaign-worker-\(worker)"
            thread.stackSize = 8 << 20
            thread.start()
        }
        while !finished.wait(seconds: tickSeconds) { tick() }
    }

    /// Maps `0..<count` to results on `jobs` threads; results are in index order.
    static func map<R: Sendable>(_ count: Int, jobs: Int, _ transform: @escaping @Sendable (Int) -> R) -> [R] {
        guard count > 0 else { return [] }
        let next = Atomic<Int>(0)
        let results = Mutex<[R?]>(Array(repeating: nil, count: count))
        run(jobs: min(jobs, count)) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                let value = transform(index)
                results.withAnnotatedLock { $0[index] = value }
            }
        }
        return results.withAnnotatedLock { $0.map { $0! } }
    }
}

/// Counts finished workers; the coordinator waits on it with a timeout.
private final class Finished: @unchecked Sendable {
    // @unchecked: `remaining` is only touched under `condition`'s lock.
    private let condition = NSCondition()
    private var remaining: Int

    init(remaining: Int) { self.remaining = remaining }

    func done() {
        condition.lock()
        remaining -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `seconds`; whether every worker has finished.
    func wait(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if remaining > 0 { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
        return remaining == 0
    }
}
