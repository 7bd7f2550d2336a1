import Foundation

/// Runs a simulated run off the process's main thread, where a campaign's runs already run (on
/// its workers, ``WorkerPool``), so that a replay, an isolated worker and a test that calls from
/// the main thread see the run the campaign saw.
///
/// Why: the Swift runtime gives a task made outside any task (`Task {}` in a lifecycle callback)
/// the priority of the OS thread that makes it: on Linux user-initiated on the main thread and
/// unspecified elsewhere, on Darwin the thread's quality of service. A default actor runs its
/// jobs in priority order, so the same run could interleave an actor's callers differently on
/// the main thread (found by an actor workload: its replay and its isolated runs disagreed with
/// its campaign).
///
/// ```swift
/// let outcome = OffMainThread.run { SimulationRunner.run(spec, choices: source) }
/// ```
///
/// Contract: off the main thread, `body` runs at once on the calling thread. On the main
/// thread it runs on a new thread made as a campaign's workers are (8 MiB stack, the default
/// quality of service) and marked with the caller's crash slot
/// (``CrashSignals/prepareThread(inheriting:)``), while the caller waits.
package enum OffMainThread {
    package static func run<Result>(_ body: () -> Result) -> Result {
        guard Thread.isMainThread else { return body() }
        return withoutActuallyEscaping(body) { body in
            let handoff = Handoff(body)
            let token = CrashSignals.currentSlotToken
            let thread = Thread {
                CrashSignals.prepareThread(inheriting: token)
                handoff.run()
            }
            thread.name = "simulation-run"
            thread.stackSize = 8 << 20
            thread.start()
            return handoff.result()
        }
    }
}

/// The body and its result, handed to the run's thread and back.
private final class Handoff<Result>: @unchecked Sendable {
    // @unchecked: the caller waits on `condition` from the hand-over until `value` is set, so one
    // thread at a time touches `body` and `value`.
    private let condition = NSCondition()
    /// Released as soon as it has run: the thread outlives the call a little, and the body must
    /// not (it is the caller's non-escaping closure).
    private var body: (() -> Result)?
    private var value: Result?

    init(_ body: @escaping () -> Result) { self.body = body }

    /// On the run's thread: runs the body and hands its result back.
    func run() {
        let result = body!()
        body = nil
        condition.lock()
        value = result
        condition.signal()
        condition.unlock()
    }

    /// On the caller's thread: waits for the result.
    func result() -> Result {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
