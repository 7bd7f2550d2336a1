import BackgroundTaskKit
import BackgroundTaskNetwork
import BackgroundTaskSimulator
import BackgroundTaskSimulatorTesting
import DeterministicSimulation
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A failure that needs one rare interleaving, found late in a long run, shrinks to the few
/// actions it needs. The schedulers draw their preemptions as counts of scheduling points (PCT's
/// change points from the run's start, random walk's gap to the next preemption), so deleting
/// early actions moved the preemption the failure needs; the shrinker now moves it back
/// (``ShrinkState``'s `retimePoints`). Probe 7 found such failures of a team's wrapper kept 103 of
/// 129 actions; this twin's kept 9 of 122 (seed 3) and 24 of 108 (seed 9).
@Suite(.enabled(if: Scheduler.seesPlainAccesses && Scheduler.tracksPlainLocks && VirtualClocks.isSupported))
struct RareInterleavingShrinkTests {
    @Test("a wrapper that ends its task after unlocking: a rare expiry in between, found late, shrinks to its core")
    func rareInterleavingShrinks() throws {
        let campaign = WorkloadCampaign(
            workload: WorkloadInfo(name: "sync-activity", summary: "ends its task after unlocking") { SyncOnLeave() },
            runs: 400, seed: Seed(3))
        let report = campaign.run()
        let failure = try #require(report.failures.first { $0.invariant == "expiry-ends-task" },
                                   "not found: \(report.failures.map(\.invariant))")
        #expect(failure.originalActionCount > 100, "found early: \(failure.shrinkPhrase)")
        // launch, lock (or home), earlyExpiry, and a networkDown or so that makes the request
        // end at once: the minimum is 3 or 4.
        #expect(failure.shrunkActionCount <= 5, "\(failure.shrinkPhrase): \(failure.shrunkReplay)")
        let strategy: ExplorationStrategy = failure.shrunkReplay.contains("strategy: .default") ? .default : .random
        let replay = try campaign.replay(choices: failure.choices, strategy: strategy)
        #expect(replay.violations.contains { $0.invariant == "expiry-ends-task" }, "\(failure.shrunkReplay) no longer fails")
    }
}

/// A team's own wrapper around a background task, one per piece of work: `end()` marks it
/// finished under its lock and calls `endBackgroundTask` after unlocking; the expiration handler
/// ends it under the same lock unless it is finished.
final class SyncActivity: @unchecked Sendable {
    private let host: any BackgroundTaskHost
    private let lock = NSLock()
    private var identifier = BackgroundTaskIdentifier.invalid
    private var finished = false
    private let onExpiration: @Sendable () -> Void

    init(name: String, host: any BackgroundTaskHost, onExpiration: @escaping @Sendable () -> Void) {
        self.host = host
        self.onExpiration = onExpiration
        lock.lock()
        identifier = host.beginBackgroundTask(withName: name) { [weak self] in self?.expire() }
        if identifier == .invalid { finished = true }
        lock.unlock()
    }

    private func expire() {
        lock.lock()
        let toEnd = finished ? .invalid : identifier
        finished = true
        lock.unlock()
        onExpiration()
        if toEnd != .invalid { host.endBackgroundTask(toEnd) }
    }

    func end() {
        lock.lock()
        let toEnd = finished ? .invalid : identifier
        finished = true
        lock.unlock()
        // The window: an expiration handler that runs now finds the activity finished and
        // returns with the task still open.
        if toEnd != .invalid { host.endBackgroundTask(toEnd) }
    }
}

/// Sends the user's changes to the server each time the app leaves the foreground, from a global
/// queue, under a ``SyncActivity``.
final class SyncOnLeave: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let host = context.application
        let session = context.makeURLSession(work: .eachRequest)
        observation = context.onDidEnterBackground {
            DispatchQueue.global(qos: .utility).async {
                let request = PendingRequest()
                let activity = SyncActivity(name: "sync", host: host) { request.cancel() }
                var post = URLRequest(url: URL(string: "https://api.example.com/sync")!)
                post.httpMethod = "POST"
                request.start(session.dataTask(with: post) { _, _, _ in activity.end() })
            }
        }
    }
}

/// The request in flight, cancelled by the activity's expiration handler.
final class PendingRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var task: (any NetworkSessionTask)?
    private var cancelled = false

    func start(_ task: any NetworkSessionTask) {
        lock.lock()
        self.task = task
        let cancelled = self.cancelled
        lock.unlock()
        if cancelled { task.cancel() } else { task.resume() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
