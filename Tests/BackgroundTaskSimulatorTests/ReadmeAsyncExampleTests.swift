import DeterministicSimulation
import Foundation
import Testing

// The README's async workload example, compiled and run here; `readmeShowsTheAsyncExample`
// checks README.md shows it verbatim.

// README-BEGIN async-workload
import BackgroundTaskKit
import BackgroundTaskSimulator

/// Sends the outbox on every background entry, retrying with backoff while offline.
final class OutboxSender: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground {
            let handle = SendHandle()
            let token = BackgroundTaskToken(name: "send-outbox", host: context.application) {
                handle.cancel()  // expiry (or a refused begin): stop sending
            }
            // As an app writes it: inside a run every job of the task runs on the simulator.
            handle.task = Task {
                defer { token.invalidate() }
                for attempt in 0..<4 {
                    let work = context.startWork("send")
                    do {
                        try await withTaskCancellationHandler {
                            try await Task.sleep(for: context.drawWorkDuration())  // virtual time
                        } onCancel: {
                            work.cancel()
                        }
                    } catch {
                        return  // cancelled
                    }
                    work.finish()
                    if context.isNetworkAvailable { return }
                    do { try await Task.sleep(for: .seconds(1 << attempt)) } catch { return }
                }
            }
        }
    }
}

/// Set and read on the main queue. A refused begin runs the expiration handler inside the
/// token's init, before the task exists: the task then starts cancelled.
final class SendHandle: @unchecked Sendable {
    private var cancelled = false
    var task: Task<Void, Never>? { didSet { if cancelled { task?.cancel() } } }
    func cancel() { cancelled = true; task?.cancel() }
}
// README-END

/// Each background entry starts a detached task (inside the run: the process's executors keep it).
final class DetachedFlusher: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground {
            Task.detached { await Self.flush() }
        }
    }

    static func flush() async {}
}

/// A workload written with GCD: each background entry flushes on a serial `DispatchQueue` of its
/// own, under a background task it ends back on `DispatchQueue.main`.
final class RealQueueFlusher: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?
    private let queue = DispatchQueue(label: "flush-queue")

    func didFinishLaunching(_ context: WorkloadContext) {
        let queue = queue
        let app = context.application
        observation = context.onDidEnterBackground {
            let work = context.startWork("flush")
            let token = BackgroundTaskToken(name: "flush", host: app) { work.cancel() }
            guard token.isRunning else { return work.cancel() }
            queue.async {
                work.finish()
                DispatchQueue.main.async { token.invalidate() }
            }
        }
    }
}

@Suite struct ReadmeAsyncExampleTests {
    static let outbox = WorkloadInfo(name: "outbox-sender", summary: "sends with backoff", usesAsync: true) {
        OutboxSender()
    }

    @Test("the async README workload passes every invariant, with and without simulated threads")
    func theOutboxSenderPasses() {
        let report = WorkloadCampaign(workload: Self.outbox, runs: 200).run()
        #expect(report.passed, "\(report)")
    }

    @Test("a Task.detached in a workload runs inside the run: the process's executors keep it, no escape")
    func aDetachedTaskStaysInside() {
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(),
                           workload: WorkloadInfo(name: "detached", summary: "detaches", usesAsync: true) { DetachedFlusher() },
                           invariants: Invariant.all, horizon: .seconds(600))
        let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(3)), keepTrace: true)
        #expect(outcome.firstViolation(of: "no-async-escape") == nil, "\(outcome.violations)")
        #expect(!outcome.trace.contains { $0.event.name == "async.escape" })
    }

    @Test("work a workload sends to a real DispatchQueue runs inside the run, on the process's simulated queue for it")
    func aRealQueueRunsInside() throws {
        var threads = EnvironmentConfig()
        threads.concurrency.enabled = true
        let spec = RunSpec(profile: .ios17, environment: threads,
                           workload: WorkloadInfo(name: "real-queue", summary: "flushes on a real queue", usesAsync: true) {
                               RealQueueFlusher()
                           },
                           invariants: Invariant.all, horizon: .seconds(600))
        let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(3)), keepTrace: true)
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        #expect(!outcome.trace.contains { $0.event.name == "async.escape" })
        let finishes = outcome.trace.filter { $0.event.name == "work.finish" }
        #expect(!finishes.isEmpty, "\(outcome.traceText)")
        #expect(finishes.allSatisfy { $0.thread?.hasSuffix(".flush-queue") == true }, "\(outcome.traceText)")
        #expect(outcome.trace.contains { $0.event.name == "task.end" })
    }

    @Test("the same async workload without escapes records no async.escape event")
    func noEscapesNoEvents() {
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: Self.outbox,
                           invariants: Invariant.all, horizon: .seconds(600))
        let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(3)), keepTrace: true)
        #expect(outcome.firstViolation(of: "no-async-escape") == nil)
        #expect(!outcome.trace.contains { $0.event.name == "async.escape" })
        #expect(outcome.trace.contains { $0.event.name == "work.start" })
    }

    @Test func readmeShowsTheAsyncExample() throws {
        try ReadmeExample.expectShown("async-workload", from: #filePath)
    }
}
