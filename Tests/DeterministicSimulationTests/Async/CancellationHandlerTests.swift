import DeterministicSimulation
import Foundation
import Testing

/// App code's own `withTaskCancellationHandler` (the standard one, as an app module writes it):
/// Swift runs `onCancel` on the cancelling thread while it holds the task's status-record lock, a
/// mutex of the concurrency runtime. A preemption there let another simulated thread run a job
/// of the same task, which waited for that lock; a run that ended meanwhile gave the wait up and
/// the runtime aborted ("pthread_mutex_lock failed with error 35"): a correct app reported as a
/// crash. The engine now never preempts a thread holding a runtime mutex (PlainLocks).
@Suite("Cancellation handlers run unpreempted, as Swift holds the task's lock")
struct CancellationHandlerTests {
    /// Lines noted by the run's simulated threads (one runs at a time), and their calls to the
    /// simulated system.
    final class Log: @unchecked Sendable {
        let scheduler: Scheduler
        var lines: [String] = []
        init(_ scheduler: Scheduler) { self.scheduler = scheduler }
        func note(_ line: String) { lines.append(line) }
        /// A call into the simulated system: a scheduling point, where the thread may be preempted.
        func hostCall() { scheduler.schedulingPoint() }
    }

    /// One run: a task sleeps inside a standard cancellation handler whose `onCancel` passes ten
    /// scheduling points (as a handler that calls a simulated host does); a worker queue cancels
    /// it at 1 s while a third queue passes scheduling points of its own. Returns the log.
    static func run(seed: Seed, carriers: SimulatedThreadPool.Carriers) -> [String] {
        let scheduler = Scheduler(choices: ChoiceSource(seed: seed))
        scheduler.enableControlledConcurrency(.randomWalk(preemptionRate: 0.9), pool: SimulatedThreadPool(carriers: carriers))
        scheduler.enableAsync(taskWidth: 2)
        let log = Log(scheduler)
        let canceller = scheduler.makeQueue(label: "canceller", kind: .serial)
        let busy = scheduler.makeQueue(label: "busy", kind: .serial)
        scheduler.async(on: scheduler.mainQueue) {
            let task = Task {
                try? await withTaskCancellationHandler {
                    try await Task.sleep(for: .seconds(100))
                } onCancel: {
                    log.note("handler begins")
                    for _ in 0..<10 { log.hostCall() }
                    log.note("handler ends")
                }
                log.note("task ends")
            }
            scheduler.asyncAfter(.seconds(1), on: canceller) { task.cancel() }
        }
        scheduler.asyncAfter(.seconds(1), on: busy) {
            for step in 0..<10 {
                log.note("busy \(step)")
                log.hostCall()
            }
        }
        _ = scheduler.run(until: .seconds(10))
        scheduler.teardownAsync()
        scheduler.discardPendingJobs()
        return log.lines
    }

    @Test("nothing else runs between a handler's start and end, while threads still interleave around it",
          .enabled(if: Scheduler.tracksPlainLocks), arguments: [SimulatedThreadPool.Carriers.fibers, .osThreads])
    func handlerIsNotPreempted(carriers: SimulatedThreadPool.Carriers) {
        var interleaved = false
        for index in 0..<40 {
            let seed = Seed(0xca9c_e100_0000_0000).derive(index: UInt64(index))
            let lines = Self.run(seed: seed, carriers: carriers)
            guard let begins = lines.firstIndex(of: "handler begins") else {
                Issue.record("seed \(seed): the handler never ran: \(lines)")
                continue
            }
            #expect(lines.count > begins + 1 && lines[begins + 1] == "handler ends", "seed \(seed): \(lines)")
            #expect(lines.contains("task ends"), "seed \(seed): \(lines)")
            #expect(lines.filter { $0.hasPrefix("busy") }.count == 10, "seed \(seed): \(lines)")
            // The busy queue's steps fall on both sides of the handler in some runs: preemption
            // still happens everywhere else.
            if let first = lines.firstIndex(of: "busy 0"), let last = lines.firstIndex(of: "busy 9"),
               first < begins, last > begins {
                interleaved = true
            }
        }
        #expect(interleaved, "no run interleaved the busy queue with the cancellation: the test shows nothing")
    }
}
