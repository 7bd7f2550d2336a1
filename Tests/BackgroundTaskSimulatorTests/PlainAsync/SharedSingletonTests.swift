import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

// App code as apps write it: what the app keeps in a `static let` is one object per OS process,
// and so one for every simulated process of a run. On a device each launch gets a fresh one; in
// the simulator a killed process's code must not keep holding it (Scheduler.releaseDeadQueues).

/// A singleton actor, the most common way apps share an actor.
private actor PhotoStore {
    static let shared = PhotoStore()
    private var saved = 0

    func save(_ work: WorkItem) async {
        try? await Task.sleep(for: .milliseconds(200))
        saved += 1
        work.finish()
    }
}

/// A global actor, and work isolated to it.
@globalActor private actor DatabaseActor {
    static let shared = DatabaseActor()
}

@DatabaseActor private enum Database {
    static var rows = 0

    static func write(_ work: WorkItem) async {
        try? await Task.sleep(for: .milliseconds(200))
        rows += 1
        work.finish()
    }
}

/// A cache behind a plain lock, shared the old way.
private final class ThumbnailCache: @unchecked Sendable {
    static let shared = ThumbnailCache()
    private let lock = NSLock()
    private var entries: [String: Int] = [:]

    func store(_ name: String, in context: WorkloadContext) {
        lock.lock()
        defer { lock.unlock() }
        let work = context.startWork("thumbnail")  // a host call inside the lock: a scheduling point
        entries[name, default: 0] += 1
        work.finish()
    }
}

/// The app: each background entry saves under a token, through one of the singletons.
final class SingletonApp: Workload, @unchecked Sendable {
    enum Shared: String, CaseIterable, Sendable { case actor, globalActor, lockedCache }

    let shared: Shared
    var observation: LifecycleObservation?

    init(_ shared: Shared) { self.shared = shared }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let shared = shared
        observation = context.onDidEnterBackground {
            let token = BackgroundTaskToken(name: "save", host: app)
            guard token.isRunning else { return }
            switch shared {
            case .actor:
                let work = context.startWork("photo")
                Task {
                    await PhotoStore.shared.save(work)
                    token.invalidate()
                }
            case .globalActor:
                let work = context.startWork("row")
                Task {
                    await Database.write(work)
                    token.invalidate()
                }
            case .lockedCache:
                app.backgroundQueue.async {
                    ThumbnailCache.shared.store("photo", in: context)
                    token.invalidate()
                }
            }
        }
    }
}

/// A process killed while its code holds a singleton (an actor's turn queued or running on its
/// threads, a lock held by a preempted thread) leaves nothing held for the next process: before
/// `releaseDeadQueues`, the next process's work on it never ran (`no-idle-task` against correct
/// code in 1 to 3 runs of 300 with the default environment's force-quits and jetsams).
@Suite struct SharedSingletonTests {
    @Test("correct code through a shared singleton passes across simulated kills", arguments: SingletonApp.Shared.allCases)
    func singletonSurvivesKills(shared: SingletonApp.Shared) {
        let info = WorkloadInfo(name: "singleton-\(shared.rawValue)", summary: "saves through a static let",
                                usesAsync: true) { SingletonApp(shared) }
        var campaign = WorkloadCampaign(workload: info, runs: 600)
        campaign.environment.weights[.forceQuit] *= 4  // kills while the singleton is held are what this is about
        let result = campaign.run()
        #expect(result.failures.isEmpty, """
            \(shared): \(result.failures.map { "\($0.invariant) (seed \($0.seed)): \($0.message)" })
            """)
        #expect(result.result.totals.runs == 600)
    }

    /// Two runs at once in one process shared the global actor: one run's turn ran the other
    /// run's jobs on its thread, and the test process crashed (`suspendCurrent outside a job`).
    @Test("a campaign of code on a global actor gives with two jobs what it gives with one")
    func parallelJobsDoNotShareTheActor() {
        let info = WorkloadInfo(name: "singleton-globalActor", summary: "saves through a global actor",
                                usesAsync: true) { SingletonApp(.globalActor) }
        var one = WorkloadCampaign(workload: info, runs: 200)
        var two = one
        one.jobs = 1
        two.jobs = 2
        let (a, b) = (one.run(), two.run())
        #expect(a.result.totals.digest == b.result.totals.digest)
        #expect(a.failures.isEmpty && b.failures.isEmpty)
    }
}
