import Dispatch
import Synchronization

/// One front-door campaign at a time in a process, in the order they asked: Swift Testing runs
/// tests in parallel, and two campaigns at once are not safe in one process.
///
/// ```swift
/// let report = await CampaignTurns.shared.withTurn { campaign.run() }   // waits, suspended, for its turn
/// ```
///
/// Why: the process executors (`ProcessExecutors`) give each run its own jobs and main actor, so
/// parallel runs of one campaign are fine when their state is made by the run. Two campaigns of
/// different tests are another matter: the main actor is one isolation domain per run, but a
/// `static` or global (even `@MainActor`) in the code under test is one per process ("The main
/// actor, and state that outlives a run" in the Async Under Simulation article), so two tests of
/// the same app code would share it from two threads, and each campaign would start from what
/// the other left (results would depend on test order); and the hang watchdog has one timeout
/// per process (`RunWatchdog`), which a second campaign would retime under the first. A campaign's
/// own `jobs` still run in parallel.
///
/// Contract: FIFO; an async caller waits suspended (no thread of the cooperative pool is held);
/// a synchronous caller (XCTest) blocks its own thread.
final class CampaignTurns: Sendable {
    static let shared = CampaignTurns()

    private enum Waiter {
        case task(CheckedContinuation<Void, Never>)
        case thread(DispatchSemaphore)  // tidy: allow a test thread waits for its turn, outside any run

        func wake() {
            switch self {
            case .task(let continuation): continuation.resume()
            case .thread(let semaphore): semaphore.signal()
            }
        }
    }

    private struct State {
        var busy = false
        var waiting: [Waiter] = []
    }

    private let state = Mutex(State())

    /// Campaigns waiting for their turn (for tests of the turns).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `body` when no other front-door campaign runs, suspending until then.
    func withTurn<T: Sendable>(_ body: () throws -> T) async rethrows -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if enter(as: .task(continuation)) { continuation.resume() }
        }
        defer { leave() }
        return try body()
    }

    /// ``withTurn(_:)`` for a synchronous caller: blocks this thread until its turn.
    func withTurnBlocking<T>(_ body: () throws -> T) rethrows -> T {
        let semaphore = DispatchSemaphore(value: 0)  // tidy: allow see Waiter.thread
        if !enter(as: .thread(semaphore)) { semaphore.wait() }
        defer { leave() }
        return try body()
    }

    /// Takes the turn (true) or queues `waiter` (false: it is woken when its turn comes).
    private func enter(as waiter: Waiter) -> Bool {
        state.withLock { state in
            guard state.busy else {
                state.busy = true
                return true
            }
            state.waiting.append(waiter)
            return false
        }
    }

    /// Hands the turn to the longest waiter, or frees it.
    private func leave() {
        let next: Waiter? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.wake()
    }
}
