import BackgroundTaskKit
import DeterministicSimulation

/// One recording being encoded in the background by the voice-memo workloads: its task id and
/// whether it was stopped, under the memo's lock, so the encoder's queue and the expiration handler
/// (main) can both stop it and end its task.
///
/// ```swift
/// let memo = EncodingMemo(number: 3, lock: context.makeLock("memo 3"))
/// memo.setTask(app.beginBackgroundTask(withName: "encode-memo") { memo.stop(work); memo.endTaskIfHeld(app) })
/// encoder.async { if memo.encode(chunks, context, work) { memo.endTaskIfHeld(app) } }
/// ```
///
/// Contract: ``endTaskIfHeld(_:)`` checks, ends and clears the id in one critical section, so the
/// task is ended exactly once and, when the handler calls it, before the handler returns.
final class EncodingMemo: @unchecked Sendable {
    // @unchecked: `task` and `stopped` are only touched holding `lock` (a simulated lock).
    let number: Int
    private let lock: SimulatedLock
    private var task = BackgroundTaskIdentifier.invalid
    private var stopped = false

    init(number: Int, lock: SimulatedLock) {
        self.number = number
        self.lock = lock
    }

    func setTask(_ id: BackgroundTaskIdentifier) {
        lock.withLock { task = id }
    }

    /// Stops the encoding (time ran out): the encoder leaves off after its current chunk.
    func stop(_ work: WorkItem) {
        lock.withLock { stopped = true }
        work.cancel()
    }

    /// Encodes `chunks` chunks of audio on the calling thread; false if stopped before the end.
    func encode(_ chunks: Int, _ context: WorkloadContext, _ work: WorkItem) -> Bool {
        for _ in 0..<chunks {
            guard !lock.withLock({ stopped }) else { return false }
            context.application.performBlockingWork(for: context.drawDuration(in: .milliseconds(200) ... .seconds(2)))
        }
        guard !lock.withLock({ stopped }) else { return false }
        work.finish()
        return true
    }

    func endTaskIfHeld(_ app: SimulatedApplication) {
        lock.withLock {
            guard task != .invalid else { return }
            app.endBackgroundTask(task)
            task = .invalid
        }
    }
}
