import BackgroundTaskKit
import Testing

@Suite("BackgroundTaskToken token")
@MainActor  // FakeHost's expiry and lifecycle verbs are, as UIKit's callouts (A3.1)
struct BackgroundTaskTests {
    @Test("begins on creation with its name and ends once on invalidate")
    func beginEndPairing() {
        let app = FakeHost()
        let task = BackgroundTaskToken(name: "save-draft", host: app)
        #expect(app.openTaskNames == ["save-draft"])
        #expect(task.state == .running)
        #expect(task.invalidate())
        #expect(!task.invalidate())
        #expect(task.state == .ended)
        #expect(app.openTasks.isEmpty)
        #expect(app.beganCount == 1 && app.endedCount == 1)
        #expect(app.misuses.isEmpty)
    }

    @Test("releasing the token ends its task")
    func releaseEnds() {
        let app = FakeHost()
        do {
            let task = BackgroundTaskToken(name: "released", host: app)
            #expect(task.isRunning)
        }
        #expect(app.openTasks.isEmpty)
        #expect(app.endedCount == 1)
    }

    @Test("releasing an invalidated token does not end it again")
    func releaseAfterInvalidate() {
        let app = FakeHost()
        do { BackgroundTaskToken(name: "x", host: app).invalidate() }
        #expect(app.endedCount == 1)
        #expect(app.misuses.isEmpty)
    }

    @Test("on expiry the user's handler runs first, then the task ends inside the callout")
    func expiryEndsInsideHandler() {
        let app = FakeHost()
        let sawOpen = Counter()
        let task = BackgroundTaskToken(name: "upload", host: app) {
            if !app.openTasks.isEmpty { sawOpen.increment() }
        }
        #expect(app.expire().isEmpty)
        #expect(sawOpen.value == 1)
        #expect(task.state == .expired)
        #expect(app.openTasks.isEmpty)
        #expect(!task.invalidate())
        #expect(app.misuses.isEmpty)
    }

    @Test("a second expiry callout neither reruns the handler nor ends twice")
    func expiryTwice() {
        let app = FakeHost()
        let calls = Counter()
        let task = BackgroundTaskToken(name: "x", host: app) { calls.increment() }
        app.expire()
        app.expire()
        #expect(calls.value == 1)
        #expect(app.endedCount == 1)
        #expect(app.misuses.isEmpty)
        _ = task
    }

    @Test("a denied begin is never ended, by invalidate or by release")
    func deniedIsNeverEnded() {
        let app = FakeHost()
        app.deniesBegin = true
        do {
            let task = BackgroundTaskToken(name: "denied", host: app)
            #expect(task.state == .denied)
            #expect(task.identifier == .invalid)
            #expect(!task.invalidate())
        }
        #expect(app.deniedCount == 1)
        #expect(app.misuses.isEmpty)
    }

    @Test("a denied begin counts as an expiry: onExpiration runs once, before init returns")
    func deniedRunsExpirationHandler() {
        let app = FakeHost()
        app.deniesBegin = true
        let calls = Counter()
        let task = BackgroundTaskToken(name: "denied", host: app) { calls.increment() }
        #expect(calls.value == 1)
        #expect(task.state == .denied)
        app.expire()  // no task was begun: nothing more runs
        #expect(calls.value == 1)
        #expect(!task.invalidate())
        #expect(app.endedCount == 0 && app.misuses.isEmpty)
    }

    @Test("an expiry that arrives before begin returns ends the task as soon as the id is known")
    func expiryBeforeBeginReturns() {
        let app = ImmediateExpiryHost()
        let calls = Counter()
        let task = BackgroundTaskToken(name: "late", host: app) { calls.increment() }
        #expect(task.state == .expired)
        #expect(calls.value == 1)
        #expect(app.ended == [task.identifier])
    }

    @Test("invalidating from the expiration handler is harmless")
    func invalidateInsideHandler() {
        let app = FakeHost()
        let box = TaskBox()
        box.task = BackgroundTaskToken(name: "self", host: app) { box.task?.invalidate() }
        app.expire()
        #expect(app.openTasks.isEmpty)
        #expect(app.endedCount == 1)
        #expect(app.misuses.isEmpty)
    }

    @Test("the scoped form ends the task when the body returns or throws")
    func scoped() throws {
        let app = FakeHost()
        let value = BackgroundTaskToken.run(name: "sum", host: app) {
            #expect(app.openTaskNames == ["sum"])
            return 42
        }
        #expect(value == 42)
        #expect(app.openTasks.isEmpty)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try BackgroundTaskToken.run(name: "boom", host: app) { throw Boom() }
        }
        #expect(app.openTasks.isEmpty)
        #expect(app.endedCount == 2)
    }

    @Test("the async scoped form ends the task after the body")
    func scopedAsync() async {
        let app = FakeHost()
        let value = await BackgroundTaskToken.run(name: "async", host: app) { () async -> Int in
            await Task.yield()
            return app.openTasks.count
        }
        #expect(value == 1)
        #expect(app.openTasks.isEmpty)
    }

    @Test("runUntilDone ends on done, once, even when done is called after expiry")
    func runUntilDone() {
        let app = FakeHost()
        let saved = DoneBox()
        BackgroundTaskToken.runUntilDone(name: "backup", host: app) { done in saved.done = done }
        #expect(app.openTaskNames == ["backup"])
        app.expire()
        #expect(app.openTasks.isEmpty)
        saved.done?()  // the blog post's unconditional end (P4): harmless here
        saved.done?()
        #expect(app.endedCount == 1)
        #expect(app.misuses.isEmpty)
    }

    @Test("runUntilDone ends the task when done is dropped without being called")
    func runUntilDoneDropped() {
        let app = FakeHost()
        BackgroundTaskToken.runUntilDone(name: "forgotten", host: app) { _ in }
        #expect(app.openTasks.isEmpty)
        #expect(app.endedCount == 1)
    }
}
