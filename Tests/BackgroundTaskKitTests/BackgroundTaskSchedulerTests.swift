import BackgroundTaskKit
import Foundation
import Testing

@Suite("BackgroundTaskScheduler")
@MainActor  // FakeHost's expiry and lifecycle verbs are, as UIKit's callouts (A3.1)
struct BackgroundTaskSchedulerTests {
    let refresh = "com.example.refresh"

    /// A process before launch finished, with a scheduler wrapper.
    func launching() -> (FakeHost, FakeTaskScheduler, BackgroundTaskScheduler) {
        let app = FakeHost(hasFinishedLaunching: false)
        let bg = FakeTaskScheduler(host: app, permittedIdentifiers: [refresh, "com.example.export.1"],
                                   exemptIdentifiers: ["com.example.export.1"])
        return (app, bg, BackgroundTaskScheduler(scheduler: bg, lifecycle: app))
    }

    @Test("registering after launch finished throws instead of crashing (P6)")
    func lateRegistration() {
        let (app, bg, scheduler) = launching()
        app.finishLaunching()
        #expect(throws: TaskRegistrationError.launchAlreadyFinished(identifier: refresh)) {
            try scheduler.register(refresh) { _ in }
        }
        #expect(bg.crashes.isEmpty && bg.registeredIdentifiers.isEmpty)
    }

    @Test("a duplicate registration throws; an unpermitted one throws notPermitted")
    func duplicateAndUnpermitted() throws {
        let (_, bg, scheduler) = launching()
        try scheduler.register(refresh) { _ in }
        #expect(throws: TaskRegistrationError.alreadyRegistered(identifier: refresh)) {
            try scheduler.register(refresh) { _ in }
        }
        #expect(throws: TaskRegistrationError.notPermitted(identifier: "com.example.other")) {
            try scheduler.register("com.example.other") { _ in }
        }
        #expect(bg.crashes.isEmpty)
        #expect(scheduler.registeredIdentifiers == [refresh])
    }

    @Test("continued-processing registration is allowed after launch")
    func continuedProcessing() throws {
        let (app, bg, scheduler) = launching()
        app.finishLaunching()
        try scheduler.registerContinuedProcessing("com.example.export.1") { task in task.complete(success: true) }
        #expect(bg.crashes.isEmpty)
    }

    @Test("submitting with Background App Refresh off throws a typed error, never traps")
    func refreshOff() throws {
        let (app, bg, scheduler) = launching()
        try scheduler.register(refresh) { _ in }
        app.finishLaunching()
        bg.isBackgroundRefreshEnabled = false
        #expect(throws: TaskSubmissionError.scheduler(.unavailable)) {
            try scheduler.submit(TaskRequest(identifier: refresh, kind: .appRefresh))
        }
        #expect(bg.pendingRequests.isEmpty)
    }

    @Test("submitting an unregistered identifier throws notRegistered instead of the system's exception")
    func unregisteredSubmit() {
        let (_, bg, scheduler) = launching()
        #expect(throws: TaskSubmissionError.notRegistered(identifier: refresh)) {
            try scheduler.submit(TaskRequest(identifier: refresh, kind: .appRefresh))
        }
        #expect(bg.crashes.isEmpty)
    }

    @Test("a task completed on the normal path is completed exactly once, even when completed twice (P7)")
    func normalCompletion() throws {
        let (app, bg, scheduler) = launching()
        try scheduler.register(refresh) { task in
            task.complete(success: true)
            task.complete(success: false)
        }
        app.finishLaunching()
        try scheduler.submit(TaskRequest(identifier: refresh, kind: .appRefresh))
        let task = try #require(bg.launch(refresh))
        #expect(task.completions == [true])
        task.expire()  // after completion: nothing
        #expect(task.completions == [true])
    }

    @Test("expiry runs the handlers, then completes unsuccessfully, once")
    func expiryCompletion() throws {
        let (app, bg, scheduler) = launching()
        let events = Recorder<String>()
        let kept = LaunchedBox()
        try scheduler.register(refresh) { task in
            kept.task = task
            task.onExpiration { events.append("cancel fetch") }
        }
        app.finishLaunching()
        let task = try #require(bg.launch(refresh))
        task.expire()
        #expect(events.all == ["cancel fetch"])
        #expect(task.completions == [false])
        kept.task?.complete(success: true)  // the fetch's late completion: ignored
        #expect(task.completions == [false])
        #expect(kept.task?.isExpired == true)
    }

    @Test("a handler that completes inside onExpiration is not completed again")
    func completeInsideExpiration() throws {
        let (app, bg, scheduler) = launching()
        let kept = LaunchedBox()
        try scheduler.register(refresh) { task in
            kept.task = task
            task.onExpiration { task.complete(success: true) }
        }
        app.finishLaunching()
        let task = try #require(bg.launch(refresh))
        task.expire()
        #expect(task.completions == [true])
    }

    @Test("a launched task that is dropped without completing is completed unsuccessfully")
    func dropped() throws {
        let (app, bg, scheduler) = launching()
        try scheduler.register(refresh) { _ in }
        app.finishLaunching()
        let task = try #require(bg.launch(refresh))
        #expect(task.completions == [false])
    }

    @Test("the launch handler runs on the registration queue")
    func registrationQueue() throws {
        let (app, bg, scheduler) = launching()
        try scheduler.register(refresh, queue: app.makeSerialQueue(label: "bg")) { task in task.complete(success: true) }
        app.finishLaunching()
        let task = try #require(bg.launch(refresh))
        #expect(task.completions.isEmpty)
        app.runUntilIdle()
        #expect(task.completions == [true])
    }

    @Test("a repeating refresh is resubmitted on every path: success, failure, expiry, never completed (P8)")
    func repeatingRefresh() throws {
        let (app, bg, scheduler) = launching()
        let mode = Recorder<String>()
        let kept = LaunchedBox()
        try scheduler.registerRepeatingRefresh(refresh, every: .seconds(900)) { task in
            kept.task = task
            switch mode.all.last {
            case "succeed": task.complete(success: true)
            case "fail": task.complete(success: false)
            default: break  // left for expiry, or forgotten
            }
        }
        app.finishLaunching()
        try scheduler.submitRepeatingRefresh(refresh)
        #expect(bg.pendingRequests.count == 1)
        #expect(bg.pendingRequests.first?.earliestBeginDate == bg.now.addingTimeInterval(900))
        for path in ["succeed", "fail", "expire", "forget"] {
            mode.append(path)
            let task = try #require(bg.launch(refresh))
            #expect(bg.pendingRequests.map(\.identifier) == [refresh], "path \(path)")
            if path == "expire" { task.expire() }
            if path == "forget" { kept.task = nil }
            #expect(task.completions.count == 1, "path \(path)")
        }
    }

    @Test("a failed resubmission is reported to the launch handler, not swallowed")
    func resubmissionFailure() throws {
        let (app, bg, scheduler) = launching()
        let errors = Recorder<TaskSubmissionError?>()
        try scheduler.registerRepeatingRefresh(refresh, every: .seconds(60)) { task in
            errors.append(task.resubmissionError)
            task.complete(success: true)
        }
        app.finishLaunching()
        bg.isBackgroundRefreshEnabled = false
        bg.launch(refresh)
        #expect(errors.all == [.scheduler(.unavailable)])
    }

    @Test("submitRepeatingRefresh for an identifier not registered as repeating throws notRegistered")
    func submitUnknownRepeating() {
        let (_, _, scheduler) = launching()
        #expect(throws: TaskSubmissionError.notRegistered(identifier: "nope")) {
            try scheduler.submitRepeatingRefresh("nope")
        }
    }

    @Test("cancel, cancelAll and pendingRequests pass through")
    func passThrough() throws {
        let (app, bg, scheduler) = launching()
        try scheduler.register(refresh) { _ in }
        app.finishLaunching()
        try scheduler.submit(TaskRequest(identifier: refresh, kind: .appRefresh))
        let seen = Recorder<[String]>()
        scheduler.pendingRequests { seen.append($0.map(\.identifier)) }
        app.runUntilIdle()
        #expect(seen.all == [[refresh]])
        scheduler.cancel(refresh)
        #expect(bg.pendingRequests.isEmpty)
        try scheduler.submit(TaskRequest(identifier: refresh, kind: .appRefresh))
        scheduler.cancelAll()
        #expect(bg.pendingRequests.isEmpty)
    }
}

final class LaunchedBox: @unchecked Sendable {
    // @unchecked: set and read on the test's thread.
    var task: LaunchedTask?
}
