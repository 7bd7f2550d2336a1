import BackgroundTaskKit
import Foundation
import Testing

@Suite("BackgroundTaskScheduler async launch handlers")
@MainActor  // FakeHost's expiry and lifecycle verbs are, as UIKit's callouts (A3.1)
struct BackgroundTaskSchedulerAsyncTests {
    let refresh = "com.example.refresh"

    func launching() -> (FakeHost, FakeTaskScheduler, BackgroundTaskScheduler) {
        let app = FakeHost(hasFinishedLaunching: false)
        let bg = FakeTaskScheduler(host: app, permittedIdentifiers: [refresh])
        return (app, bg, BackgroundTaskScheduler(scheduler: bg, lifecycle: app))
    }

    struct Failed: Error {}

    @Test("an operation that returns completes the task successfully, once")
    func returnCompletesSuccessfully() async throws {
        let (_, bg, scheduler) = launching()
        try scheduler.registerAsync(refresh) { _ in await Task.yield() }
        let task = try #require(bg.launch(refresh))
        #expect(await eventually { !task.completions.isEmpty })
        #expect(task.completions == [true])
    }

    @Test("an operation that throws completes the task as failed, once")
    func throwCompletesAsFailed() async throws {
        let (_, bg, scheduler) = launching()
        try scheduler.registerAsync(refresh) { _ in throw Failed() }
        let task = try #require(bg.launch(refresh))
        #expect(await eventually { !task.completions.isEmpty })
        #expect(task.completions == [false])
    }

    @Test("expiry cancels the operation and completes the task as failed before the handler returns")
    func expiryCancels() async throws {
        let (_, bg, scheduler) = launching()
        let started = Recorder<Bool>()
        let sawCancellation = Recorder<Bool>()
        try scheduler.registerAsync(refresh) { _ in
            started.append(true)
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                sawCancellation.append(error is CancellationError)
                throw error
            }
        }
        let task = try #require(bg.launch(refresh))
        #expect(await eventually { !started.all.isEmpty })
        task.expire()
        #expect(task.completions == [false])  // already, synchronously
        #expect(await eventually { !sawCancellation.all.isEmpty })
        #expect(sawCancellation.all == [true])
        #expect(task.completions == [false])  // the operation's end completes nothing more
    }

    @Test("an operation still running at expiry finds itself cancelled; the task completes once")
    func expiryWhileWaiting() async throws {
        let (_, bg, scheduler) = launching()
        let expired = Recorder<Bool>()
        let cancelledAfterExpiry = Recorder<Bool>()
        try scheduler.registerAsync(refresh) { _ in
            _ = await eventually { !expired.all.isEmpty }  // no cancellation point of its own
            cancelledAfterExpiry.append(Task.isCancelled)
        }
        let task = try #require(bg.launch(refresh))
        task.expire()
        expired.append(true)
        #expect(task.completions == [false])
        #expect(await eventually { !cancelledAfterExpiry.all.isEmpty })
        #expect(cancelledAfterExpiry.all == [true])
        #expect(task.completions == [false])
    }

    @Test("an operation that sees its cancellation and returns normally completes as failed")
    func cancelledReturnIsFailure() async throws {
        let (_, bg, scheduler) = launching()
        try scheduler.registerAsync(refresh) { _ in
            withUnsafeCurrentTask { $0?.cancel() }
        }
        let task = try #require(bg.launch(refresh))
        #expect(await eventually { !task.completions.isEmpty })
        #expect(task.completions == [false])
    }

    @Test("an explicit completion inside the operation wins over the automatic one")
    func explicitCompletionWins() async throws {
        let (_, bg, scheduler) = launching()
        try scheduler.registerAsync(refresh) { task in
            task.complete(success: false)
        }
        let task = try #require(bg.launch(refresh))
        #expect(await eventually { !task.completions.isEmpty })
        try await Task.sleep(for: .milliseconds(20))  // give a second completion a chance
        #expect(task.completions == [false])
    }

    @Test("the async repeating refresh resubmits before its operation, and completes once")
    func repeatingRefreshAsync() async throws {
        let (app, bg, scheduler) = launching()
        let pendingDuringOperation = Recorder<Int>()
        try scheduler.registerRepeatingRefreshAsync(refresh, every: .seconds(900)) { _ in
            pendingDuringOperation.append(bg.pendingRequests.count)
        }
        app.finishLaunching()
        let task = try #require(bg.launch(refresh))
        #expect(await eventually { !task.completions.isEmpty })
        #expect(task.completions == [true])
        #expect(pendingDuringOperation.all == [1])
        #expect(bg.pendingRequests.count == 1)
    }

    @Test("async registration after launch finished throws, like the callback form")
    func lateAsyncRegistration() {
        let (app, bg, scheduler) = launching()
        app.finishLaunching()
        #expect(throws: TaskRegistrationError.launchAlreadyFinished(identifier: refresh)) {
            try scheduler.registerAsync(refresh) { _ in }
        }
        #expect(bg.registeredIdentifiers.isEmpty)
    }
}
