import BackgroundTaskKit
import Testing

/// `BackgroundTaskToken.task`: a Swift task under a background task that the expiry cancels.
@Suite("BackgroundTaskToken.task")
@MainActor  // FakeHost's expiry is a main-actor callout, as UIKit's (A3.1)
struct BackgroundTaskTokenTaskTests {
    @Test("the task begins before the Swift task and ends once when the operation returns")
    func endsWhenOperationReturns() async throws {
        let app = FakeHost()
        let sawOpen = Counter()
        let task = BackgroundTaskToken.task(name: "send-outbox", host: app) {
            if app.openTaskNames == ["send-outbox"] { sawOpen.increment() }
            return 42
        }
        #expect(try await task.value == 42)
        #expect(sawOpen.value == 1)
        #expect(app.openTasks.isEmpty)
        #expect(app.beganCount == 1 && app.endedCount == 1)
        #expect(app.misuses.isEmpty)
    }

    @Test("the task ends once when the operation throws, and the Swift task rethrows")
    func endsWhenOperationThrows() async {
        struct Offline: Error {}
        let app = FakeHost()
        let task = BackgroundTaskToken.task(name: "sync", host: app) { () async throws -> Int in throw Offline() }
        await #expect(throws: Offline.self) { try await task.value }
        #expect(app.openTasks.isEmpty && app.endedCount == 1 && app.misuses.isEmpty)
    }

    @Test("expiry cancels the Swift task, runs onExpiration, and ends the task inside the callout")
    func expiryCancelsAndEndsInside() async throws {
        let app = FakeHost()
        let started = Gate()
        let order = Recorder<String>()
        let task = BackgroundTaskToken.task(name: "upload", host: app, onExpiration: { order.append("onExpiration") }) {
            await withTaskCancellationHandler {
                await started.open()
                try? await Task.sleep(for: .seconds(3_600))  // ends early only by cancellation
            } onCancel: {
                order.append("cancelled")
            }
            return Task.isCancelled
        }
        await started.wait()
        #expect(app.expire().isEmpty)  // no task left open when the handlers return (A3.2)
        #expect(order.all == ["cancelled", "onExpiration"])
        #expect(try await task.result.get() == true)
        #expect(app.beganCount == 1 && app.endedCount == 1)
        #expect(app.tasksLeftOpenByExpiry.isEmpty && app.misuses.isEmpty)
    }

    @Test("a refused begin counts as an immediate expiry: onExpiration at once, the operation never runs")
    func refusedBeginNeverRunsTheOperation() async {
        // Many times: the Swift task may start before the cancel is attached to it.
        for _ in 0..<200 {
            let app = FakeHost()
            app.deniesBegin = true
            let expirations = Counter()
            let ran = Counter()
            let task = BackgroundTaskToken.task(name: "refused", host: app, onExpiration: { expirations.increment() }) {
                ran.increment()
            }
            #expect(expirations.value == 1)
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(ran.value == 0)
            #expect(app.beganCount == 0 && app.endedCount == 0 && app.misuses.isEmpty)
        }
    }

    @Test("an expiry inside begin (before the Swift task exists) ends the task once; the operation never runs")
    func expiryBeforeTheSwiftTaskStarts() async {
        for _ in 0..<200 {
            let app = ImmediateExpiryHost()
            let ran = Counter()
            let task = BackgroundTaskToken.task(name: "at-once", host: app) { ran.increment() }
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(ran.value == 0)
            #expect(app.ended.count == 1)
        }
    }

    @Test("an operation that declares the main actor runs on it, across its awaits, and touches its state")
    func operationKeepsItsIsolation() async throws {
        let app = FakeHost()
        let model = CountingModel()
        let task = BackgroundTaskToken.task(name: "model", host: app) { @MainActor in
            try await Task.sleep(for: .milliseconds(1))
            MainActor.assertIsolated()
            model.count += 1  // main-actor state, no hop
            return app.openTasks.count
        }
        #expect(try await task.value == 1)
        #expect(model.count == 1)
        #expect(app.openTasks.isEmpty)
    }
}

/// Main-actor state an operation touches directly.
@MainActor
private final class CountingModel {
    var count = 0
}

/// An async one-shot: `wait()` returns once `open()` has been called.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
