import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// A `NotificationCenter` observer added with `queue: .main` (or an `OperationQueue` of the app's
/// own) runs as on a device. Linux Foundation's `post` adds the observer's block to that queue and
/// then polls the queue (`waitUntilAllOperationsAreFinished()`), taking the queue's lock in a loop
/// with no scheduling point. The main thread, running the block, waited for that lock to book the
/// block's end, and the poster, letting it go and taking it again at once, never let it: every
/// run of the textbook pattern (a session's completion posts, the main-queue observer ends the
/// background task) hung until the watchdog ended the test process. A mutex released to waiters
/// is now theirs until one of them has run.
@Suite("NotificationCenter observers with a queue", .enabled(if: VirtualClocks.isSupported))
struct NotificationQueueTests {
    static func info(_ variant: ObserverQueue) -> WorkloadInfo {
        WorkloadInfo(name: "sync-notification-\(variant)", summary: "a sync's end is posted; the observer ends the task") {
            NotifiedSync(observerQueue: variant)
        }
    }

    @Test("an observer on OperationQueue.main or the app's own queue ends the task; the campaign holds",
          arguments: [ObserverQueue.main, .appQueue])
    func observerOnAQueueHolds(_ variant: ObserverQueue) {
        var campaign = WorkloadCampaign(workload: Self.info(variant), runs: 300, seed: Seed(0x0b5e_47e5))
        campaign.runTimeout = .seconds(30)
        let report = campaign.run()
        #expect(report.passed, "\(report)")
    }

    @Test("an operation an earlier run left on OperationQueue.main does not hold up a later run's post")
    func operationsLeftOnTheMainQueueStayInTheirProcess() {
        // Each launch adds an operation to the main queue whose turn never comes (main is stuck
        // until the launch watchdog kills the app). With one main queue per test process, every
        // later post to a main-queue observer waited for those operations forever.
        let stuck = WorkloadInfo(name: "stuck-main", summary: "main never runs its queue") { StuckMainQueue() }
        var leaving = WorkloadCampaign(workload: stuck, runs: 20, seed: Seed(0x57_0c6))
        leaving.runTimeout = .seconds(30)
        _ = leaving.run()  // the launch watchdog kills each launch: findings, not the point
        var campaign = WorkloadCampaign(workload: Self.info(.main), runs: 100, seed: Seed(0x0b5e_47e5))
        campaign.runTimeout = .seconds(30)
        let report = campaign.run()
        #expect(report.passed, "\(report)")
    }

    @Test("OperationQueue.main is the process's own: the same all its life, current on its main thread, not elsewhere")
    func mainQueueIsTheProcesssOwn() {
        let probe = MainQueueProbe()
        let info = WorkloadInfo(name: "main-queue-identity", summary: "looks at OperationQueue.main") { MainQueueLooker(probe: probe) }
        let report = WorkloadCampaign(workload: info, runs: 20, seed: Seed(0x1de)).run()
        #expect(report.passed, "\(report)")
        #expect(probe.launches.count >= 20, "\(probe.launches.count) launches")
        // The later looks are made in most launches (not vacuously true).
        #expect(probe.lifeChecks > 0 && probe.elsewhereChecks > 0, "\(probe.lifeChecks) \(probe.elsewhereChecks)")
        #expect(probe.launches.allSatisfy { $0.sameAllLife && $0.currentOnMain && !$0.currentElsewhere },
                "\(probe.launches)")
        // Kept alive by the probe, two launches' queues are two objects, and none is Foundation's.
        #expect(Set(probe.launches.map { ObjectIdentifier($0.queue) }).count == probe.launches.count)
        #expect(probe.launches.allSatisfy { $0.queue.isEqual(OperationQueue.main) && $0.queue !== OperationQueue.main })
    }

    @Test("an observer on the posting thread touching the main thread's task id is a race, found")
    func observerOnThePostingThreadIsFound() {
        var campaign = WorkloadCampaign(workload: Self.info(.postingThread), runs: 300, seed: Seed(0x0b5e_47e5))
        campaign.runTimeout = .seconds(30)
        let report = campaign.run()
        #expect(report.failures.contains { $0.invariant == "no-data-race" }, "\(report)")
    }
}

/// Where the observer's block runs.
enum ObserverQueue: String, Sendable, CustomStringConvertible {
    /// `queue: .main`.
    case main
    /// `queue:` an `OperationQueue` of the app's own; the block hops to the main queue.
    case appQueue
    /// `queue: nil`: on the thread that posts (the bug: the task id is the main thread's).
    case postingThread

    var description: String { rawValue }
}

extension Notification.Name {
    fileprivate static let syncDidFinish = Notification.Name("SyncDidFinish")
}

/// On every background entry, begins a background task and syncs on a background queue; the
/// sync posts `syncDidFinish` when done, and the observer ends the task on the main thread (or,
/// the bug, on the posting thread). The expiration handler ends it too, on main.
private final class NotifiedSync: Workload, @unchecked Sendable {
    // @unchecked: `observation`, `observer` and `taskID` are the main thread's (the bug: not).
    private let observerQueue: ObserverQueue
    private let appQueue = OperationQueue()
    private var observation: LifecycleObservation?
    private var observer: (any NSObjectProtocol)?
    private var taskID = BackgroundTaskIdentifier.invalid

    init(observerQueue: ObserverQueue) {
        self.observerQueue = observerQueue
        appQueue.maxConcurrentOperationCount = 1
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let queue: OperationQueue? = switch observerQueue {
        case .main: .main
        case .appQueue: appQueue
        case .postingThread: nil
        }
        observer = NotificationCenter.default.addObserver(forName: .syncDidFinish, object: nil, queue: queue) {
            [weak self] _ in
            guard let self else { return }
            if self.observerQueue == .appQueue {
                DispatchQueue.main.async { self.endTask(app) }
            } else {
                self.endTask(app)
            }
        }
        observation = app.addLifecycleObserver { [weak self] event in
            guard let self, event == .didEnterBackground, self.taskID == .invalid else { return }
            let work = context.startWork("sync")
            let cancelled = NSLock.Protected(false)
            self.taskID = app.beginBackgroundTask(withName: "sync") { [weak self] in
                cancelled.set(true)
                work.cancel()
                self?.endTask(app)
            }
            Self.sync(pages: context.drawInt(in: 1...8), work: work, cancelled: cancelled)
        }
    }

    /// Fetches `pages` pages, a second each, on a background queue; posts `syncDidFinish` when
    /// done, stops when cancelled.
    private static func sync(pages: Int, work: WorkItem, cancelled: NSLock.Protected<Bool>) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) {
            if cancelled.value { return }
            if pages > 1 { return sync(pages: pages - 1, work: work, cancelled: cancelled) }
            work.finish()
            NotificationCenter.default.post(name: .syncDidFinish, object: nil)
        }
    }

    private func endTask(_ app: SimulatedApplication) {
        guard taskID != .invalid else { return }
        app.endBackgroundTask(taskID)
        taskID = .invalid
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }
}

extension NSLock {
    /// A value behind a lock of its own.
    fileprivate final class Protected<Value: Sendable>: @unchecked Sendable {
        // @unchecked: `stored` is read and written under `lock` only.
        private let lock = NSLock()
        private var stored: Value
        init(_ value: Value) { stored = value }
        var value: Value { lock.withLock { stored } }
        func set(_ value: Value) { lock.withLock { stored = value } }
    }
}

/// Each launch asks a global queue to add an operation to the main queue, then blocks the main
/// thread in its launch, so the operation's turn never comes.
private final class StuckMainQueue: Workload, @unchecked Sendable {
    func didFinishLaunching(_ context: WorkloadContext) {
        let added = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            OperationQueue.main.addOperation {}
            added.signal()
        }
        added.wait()
        Thread.sleep(forTimeInterval: 3_600)
    }
}

/// What each launch saw of `OperationQueue.main`.
final class MainQueueProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    struct Launch: @unchecked Sendable, CustomStringConvertible {
        var queue: OperationQueue
        var sameAllLife = true
        var currentOnMain = false
        var currentElsewhere = false
        var description: String { "same \(sameAllLife), current on main \(currentOnMain), elsewhere \(currentElsewhere)" }
    }
    var launches: [Launch] = []
    /// How many looks at the main queue on a background entry, and at `current` off main, were made.
    var lifeChecks = 0
    var elsewhereChecks = 0
}

/// Looks at `OperationQueue.main` and `OperationQueue.current` at launch, on a global queue, and
/// on the next background entry.
private final class MainQueueLooker: Workload, @unchecked Sendable {
    private let probe: MainQueueProbe
    private var observation: LifecycleObservation?

    init(probe: MainQueueProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let probe = probe
        let index = probe.launches.count
        let queue = OperationQueue.main
        probe.launches.append(MainQueueProbe.Launch(queue: queue))
        probe.launches[index].currentOnMain = OperationQueue.current === queue
        DispatchQueue.global().async {
            let elsewhere = OperationQueue.current === queue
            DispatchQueue.main.async {
                probe.launches[index].currentElsewhere = elsewhere
                probe.elsewhereChecks += 1
            }
        }
        observation = context.onDidEnterBackground {
            probe.launches[index].sameAllLife = probe.launches[index].sameAllLife && OperationQueue.main === queue
            probe.lifeChecks += 1
        }
    }
}
