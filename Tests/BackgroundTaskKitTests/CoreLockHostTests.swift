import BackgroundTaskKit
import Foundation
import Synchronization
import Testing

/// The ``CoreLockHost`` seam: every call the core makes to a host while holding one of its own
/// locks arrives inside `whileCoreHoldsLock` (the simulator defers preemption there), and a host
/// that does not implement it gets the default, which only runs the body.
@Suite("The core's locked calls reach the host through its seam")
@MainActor
struct CoreLockHostTests {
    @Test("a token's end, from the app and from the expiration handler, is inside the seam (A3.2)")
    func tokenEnds() {
        let host = SeamWatchingHost()
        let token = BackgroundTaskToken(name: "upload", host: host)
        #expect(token.invalidate())
        let expiring = BackgroundTaskToken(name: "sync", host: host)
        host.expireAll()
        #expect(expiring.state == .expired)
        #expect(host.calls.map(\.name) == ["begin", "end", "begin", "end"])
        // The begins of a bare token are not under a lock; both ends are.
        #expect(host.calls.map(\.insideSeam) == [false, true, false, true])
        #expect(host.depth == 0)
    }

    @Test("a holder begins and ends its task under its lock, inside the seam")
    func holderBeginsAndEnds() {
        let host = SeamWatchingHost(state: .background)
        let tracker = InFlightWorkTracker(name: "downloads", host: host)
        let work = tracker.beginWork(name: "episode")
        #expect(tracker.holdsBackgroundTask)
        work.finish()
        #expect(!tracker.holdsBackgroundTask)
        #expect(host.calls.map(\.name) == ["begin", "end"])
        #expect(host.calls.map(\.insideSeam) == [true, true])
    }

    @Test("a view's onChange runs inside the seam (it runs under the delivery lock)")
    func visibilityDelivers() {
        let host = SeamWatchingHost(state: .active)
        let seen = Recorder<Bool>()
        let visibility = ViewVisibility(host: host) { _ in seen.append(host.depth > 0) }
        visibility.viewDidAppear()
        visibility.viewWillDisappear()
        #expect(seen.all == [true, true])
    }

    @Test("a repeating refresh's resubmission reaches the scheduler inside its seam (C2.1)")
    func refreshResubmits() throws {
        let fake = FakeHost(hasFinishedLaunching: false)
        let scheduler = SeamWatchingScheduler(FakeTaskScheduler(host: fake))
        let tasks = BackgroundTaskScheduler(scheduler: scheduler, lifecycle: fake)
        let launched = Recorder<String>()
        try tasks.registerRepeatingRefresh("com.example.refresh", every: .seconds(900)) { task in
            launched.append(task.identifier)
            task.complete(success: true)
        }
        try tasks.submitRepeatingRefresh("com.example.refresh")
        #expect(scheduler.submits == [false])  // the app's own submission: no lock held
        #expect(scheduler.fake.launch("com.example.refresh") != nil)
        #expect(launched.all == ["com.example.refresh"])
        #expect(scheduler.submits == [false, true])  // the resubmission, under the task's lock
    }

    @Test("a host without the method gets the default: the body runs once, at once")
    func defaultRunsTheBody() {
        let host = ImmediateExpiryHost()
        var runs = 0
        #expect(host.whileCoreHoldsLock { runs += 1; return "done" } == "done")
        #expect(runs == 1)
    }
}

/// A host that records each begin and end, and whether it came inside `whileCoreHoldsLock`.
/// Used from the test's (main) thread only.
final class SeamWatchingHost: BackgroundTaskHost, LifecycleHost, @unchecked Sendable {
    // @unchecked: the tests call it from the main actor only.
    struct Call { let name: String; let insideSeam: Bool }
    private(set) var calls: [Call] = []
    private(set) var depth = 0
    private var handlers: [Int: ExpirationHandler] = [:]
    private var next = 1
    let applicationState: ApplicationState

    init(state: ApplicationState = .background) { applicationState = state }

    func whileCoreHoldsLock<Result>(_ body: () -> Result) -> Result {
        depth += 1
        defer { depth -= 1 }
        return body()
    }

    func beginBackgroundTask(withName name: String?, expirationHandler: ExpirationHandler?) -> BackgroundTaskIdentifier {
        calls.append(Call(name: "begin", insideSeam: depth > 0))
        defer { next += 1 }
        handlers[next] = expirationHandler
        return BackgroundTaskIdentifier(rawValue: next)
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        calls.append(Call(name: "end", insideSeam: depth > 0))
        handlers[identifier.rawValue] = nil
    }

    /// Calls every open task's expiration handler, as the system does when time runs out (A3.1).
    func expireAll() {
        let open = handlers.sorted { $0.key < $1.key }.map(\.value)
        MainActor.assumeIsolated { for handler in open { handler() } }
    }

    var backgroundTimeRemaining: Double { 30 }
    func addLifecycleObserver(_ observer: @escaping LifecycleObserver) -> LifecycleObservation { LifecycleObservation {} }
    var hasFinishedLaunching: Bool { false }
}

/// A ``FakeTaskScheduler`` that records whether each submission came inside its seam.
final class SeamWatchingScheduler: TaskSchedulerHost, @unchecked Sendable {
    // @unchecked: the tests call it from the main actor only.
    let fake: FakeTaskScheduler
    private(set) var submits: [Bool] = []
    private var depth = 0

    init(_ fake: FakeTaskScheduler) { self.fake = fake }

    func whileCoreHoldsLock<Result>(_ body: () -> Result) -> Result {
        depth += 1
        defer { depth -= 1 }
        return body()
    }

    func register(forTaskWithIdentifier identifier: String, using queue: (any WorkQueue)?,
                  launchHandler: @escaping @Sendable (any ScheduledTask) -> Void) -> Bool {
        fake.register(forTaskWithIdentifier: identifier, using: queue, launchHandler: launchHandler)
    }

    func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        submits.append(depth > 0)
        try fake.submit(request)
    }

    func cancel(taskRequestWithIdentifier identifier: String) { fake.cancel(taskRequestWithIdentifier: identifier) }
    func cancelAllTaskRequests() { fake.cancelAllTaskRequests() }
    func getPendingTaskRequests(completionHandler: @escaping @Sendable ([TaskRequest]) -> Void) {
        fake.getPendingTaskRequests(completionHandler: completionHandler)
    }
    var now: Date { fake.now }
}
