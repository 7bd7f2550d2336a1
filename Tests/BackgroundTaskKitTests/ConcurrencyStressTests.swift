import BackgroundTaskKit
import Dispatch
import Foundation
import Synchronization
import Testing

/// The real-thread tests: run them under ThreadSanitizer with
/// `swift test --sanitize=thread --filter Concurrency`.
@Suite("Concurrency stress (real threads)")
struct ConcurrencyStressTests {
    @Test("invalidating tokens from many threads while expiry fires: no double end, no leak")
    func invalidateWhileExpiring() {
        let host = CountingHost()
        let rounds = 100
        let perRound = 8
        for _ in 0..<rounds {
            let tokens = (0..<perRound).map { BackgroundTaskToken(name: "stress \($0)", host: host) }
            let group = DispatchGroup()
            // The main thread: the system's expiry callout, on the main actor (A3.1).
            DispatchQueue.main.async(group: group) { MainActor.assumeIsolated { host.expireAll() } }
            DispatchQueue.concurrentPerform(iterations: perRound * 2) { index in
                tokens[index % perRound].invalidate()
            }
            group.wait()
            // Every task ended before anyone returned; nothing left open.
            #expect(tokens.allSatisfy { !$0.isRunning })
        }
        #expect(host.doubleEnds == 0)
        #expect(host.unknownEnds == 0)
        #expect(host.open == 0)
        #expect(host.began == rounds * perRound)
        #expect(host.ended == rounds * perRound)
        #expect(host.leftOpenByExpiry == 0)
    }

    @Test("tokens made on many threads whose expiration handler another thread calls while begin is still returning (A3.4): each task ends inside its handler (A1.4)")
    func expiryDuringBeginOnAnotherThread() {
        let host = ExpiringDuringBeginHost()
        let tokens = Mutex<[BackgroundTaskToken]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let token = BackgroundTaskToken(name: "late \(index)", host: host)
            tokens.withCriticalSection { $0.append(token) }
        }
        host.waitForHandlers()
        #expect(tokens.withCriticalSection { $0.allSatisfy { $0.state == .expired } })
        #expect(host.handlersCalled == 64)
        #expect(host.openAfterHandler == [], "tasks still open when their handler returned")
        #expect(host.open == 0)
    }

    @Test("async launch handlers: expiries racing with returns on many threads complete every BGTask exactly once")
    func racingExpiries() async throws {
        let app = FakeHost(hasFinishedLaunching: false)
        let bg = FakeTaskScheduler(host: app, permittedIdentifiers: ["com.example.refresh"])
        let scheduler = BackgroundTaskScheduler(scheduler: bg, lifecycle: app)
        let refresh = "com.example.refresh"
        try scheduler.registerAsync(refresh) { _ in await Task.yield() }
        var tasks: [FakeScheduledTask] = []
        for _ in 0..<200 { tasks.append(try #require(bg.launch(refresh))) }
        await withTaskGroup(of: Void.self) { group in
            for task in tasks { group.addTask { task.expire() } }
        }
        #expect(await eventually { tasks.allSatisfy { !$0.completions.isEmpty } })
        try await Task.sleep(for: .milliseconds(20))  // let late operations finish
        #expect(tasks.allSatisfy { $0.completions.count == 1 })
    }

    @Test("Swift tasks under tokens: expiries racing with their start and their end, each task ended once, each cancelled or done")
    func swiftTasksRacingExpiry() async {
        let host = CountingHost()
        for _ in 0..<50 {
            let tasks = (0..<8).map { index in
                BackgroundTaskToken.task(name: "swift \(index)", host: host) { () async -> Bool in
                    await Task.yield()
                    return Task.isCancelled
                }
            }
            // The main thread's expiry callout (A3.1) while the tasks start and finish.
            await MainActor.run { host.expireAll() }
            for task in tasks { _ = await task.result }
        }
        #expect(host.doubleEnds == 0 && host.unknownEnds == 0)
        #expect(host.open == 0 && host.leftOpenByExpiry == 0)
        #expect(host.began == 400 && host.ended == 400)
    }

    @Test("a queue fed from many threads holds one task while busy and ends it when drained")
    func queueFromManyThreads() {
        let host = CountingHost()
        let queue = BackgroundOperationQueue(name: "stress", host: host, maxConcurrentOperationCount: 3)
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            done.enter()
            queue.addOperation { done.leave() }
        }
        done.wait()
        // The last finish and the queue's end race the group; wait for the queue to go idle.
        for _ in 0..<2_000 where !queue.isIdle || queue.holdsBackgroundTask { usleepShort() }
        #expect(queue.isIdle)
        #expect(host.open == 0)
        #expect(host.maxOpen == 1)
        #expect(host.doubleEnds == 0 && host.unknownEnds == 0)
    }

    @Test("work items finishing on many threads while the app goes back and forth: no leak")
    func trackerFromManyThreads() {
        let host = CountingHost()
        let tracker = InFlightWorkTracker(name: "stress", host: host)
        let items = (0..<256).map { tracker.beginWork(name: "\($0)") }
        let group = DispatchGroup()
        DispatchQueue.main.async(group: group) {  // the notifications come on the main actor
            MainActor.assumeIsolated {
                for index in 0..<100 { host.send(index.isMultiple(of: 2) ? .didEnterBackground : .willEnterForeground) }
                host.send(.didEnterBackground)
            }
        }
        DispatchQueue.concurrentPerform(iterations: items.count) { items[$0].finish() }
        group.wait()
        #expect(tracker.inFlightCount == 0)
        #expect(host.open == 0)
        #expect(host.maxOpen <= 1)
        #expect(host.doubleEnds == 0 && host.unknownEnds == 0)
    }
}

private func usleepShort() {
    let deadline = DispatchTime.now() + .microseconds(500)
    while DispatchTime.now() < deadline {}
}

/// A thread-safe host that counts begins and ends, catches double and unknown ends, and plays
/// the system's expiry callout and notifications on the main actor (``expireAll()``, ``send(_:)``),
/// racing begins and ends from any thread.
final class CountingHost: BackgroundTaskHost, LifecycleHost, ExecutionHost {
    private struct State {
        var next = 1
        var open: [Int: ExpirationHandler?] = [:]
        var endedIDs: Set<Int> = []
        var began = 0
        var ended = 0
        var maxOpen = 0
        var doubleEnds = 0
        var unknownEnds = 0
        var leftOpenByExpiry = 0
        var observers: [Int: LifecycleObserver] = [:]
    }

    private let state = Mutex(State())
    let mainQueue: any WorkQueue = DispatchWorkQueue(DispatchQueue(label: "counting-host.main"))
    let backgroundQueue: any WorkQueue = DispatchWorkQueue(.global())

    func makeSerialQueue(label: String) -> any WorkQueue { DispatchWorkQueue(DispatchQueue(label: label)) }

    func beginBackgroundTask(withName name: String?, expirationHandler: ExpirationHandler?) -> BackgroundTaskIdentifier {
        state.withCriticalSection { state in
            let id = state.next
            state.next += 1
            state.open[id] = expirationHandler
            state.began += 1
            state.maxOpen = max(state.maxOpen, state.open.count)
            return BackgroundTaskIdentifier(rawValue: id)
        }
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        state.withCriticalSection { state in
            if state.open.removeValue(forKey: identifier.rawValue) != nil {
                state.ended += 1
                state.endedIDs.insert(identifier.rawValue)
            } else if state.endedIDs.contains(identifier.rawValue) {
                state.doubleEnds += 1
            } else {
                state.unknownEnds += 1
            }
        }
    }

    /// Calls every open task's handler (outside the lock), then counts tasks left open.
    @MainActor
    func expireAll() {
        let callout = state.withCriticalSection { $0.open.map { ($0.key, $0.value) } }
        for (_, handler) in callout { handler?() }
        state.withCriticalSection { state in
            state.leftOpenByExpiry += callout.filter { state.open[$0.0] != nil }.count
        }
    }

    func addLifecycleObserver(_ observer: @escaping LifecycleObserver) -> LifecycleObservation {
        let key = state.withCriticalSection { state in
            let key = state.next
            state.next += 1
            state.observers[key] = observer
            return key
        }
        return LifecycleObservation { [weak self] in _ = self?.state.withCriticalSection { $0.observers.removeValue(forKey: key) } }
    }

    @MainActor
    func send(_ event: LifecycleEvent) {
        let observers = state.withCriticalSection { Array($0.observers.values) }
        for observer in observers { observer(event) }
    }

    var hasFinishedLaunching: Bool { true }
    var backgroundTimeRemaining: Double { 30 }
    var applicationState: ApplicationState { .active }

    var began: Int { state.withCriticalSection { $0.began } }
    var ended: Int { state.withCriticalSection { $0.ended } }
    var open: Int { state.withCriticalSection { $0.open.count } }
    var maxOpen: Int { state.withCriticalSection { $0.maxOpen } }
    var doubleEnds: Int { state.withCriticalSection { $0.doubleEnds } }
    var unknownEnds: Int { state.withCriticalSection { $0.unknownEnds } }
    var leftOpenByExpiry: Int { state.withCriticalSection { $0.leftOpenByExpiry } }
}

/// A host whose time is spent: every begin hands its expiration handler to the main thread at
/// once (A3.4), which calls it while `beginBackgroundTask` is still returning on the token's
/// thread (it returns 2 ms later), and records the tasks still open when a handler returns (A3.6).
final class ExpiringDuringBeginHost: BackgroundTaskHost {
    private struct State {
        var next = 1
        var open: Set<Int> = []
        var openAfterHandler: [Int] = []
        var handlersCalled = 0
    }
    private let state = Mutex(State())
    private let handlers = DispatchGroup()

    var open: Int { state.withCriticalSection { $0.open.count } }
    var openAfterHandler: [Int] { state.withCriticalSection { $0.openAfterHandler } }
    var handlersCalled: Int { state.withCriticalSection { $0.handlersCalled } }

    func beginBackgroundTask(withName name: String?, expirationHandler: ExpirationHandler?) -> BackgroundTaskIdentifier {
        let id = state.withCriticalSection { state in
            defer { state.next += 1 }
            state.open.insert(state.next)
            return state.next
        }
        DispatchQueue.main.async(group: handlers) { [self] in
            MainActor.assumeIsolated { expirationHandler?() }  // as UIKit: on main; ended by its return
            state.withCriticalSection { state in
                state.handlersCalled += 1
                if state.open.contains(id) { state.openAfterHandler.append(id) }
            }
        }
        Thread.sleep(forTimeInterval: 0.002)  // begin still returning while the handler runs
        return BackgroundTaskIdentifier(rawValue: id)
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        _ = state.withCriticalSection { $0.open.remove(identifier.rawValue) }
    }

    var backgroundTimeRemaining: Double { 0 }
    var applicationState: ApplicationState { .background }

    func waitForHandlers() { handlers.wait() }
}
