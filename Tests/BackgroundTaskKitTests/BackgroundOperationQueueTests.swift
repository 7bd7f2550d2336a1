import BackgroundTaskKit
import Testing

@Suite("BackgroundOperationQueue")
@MainActor  // FakeHost's expiry and lifecycle verbs are, as UIKit's callouts (A3.1)
struct BackgroundOperationQueueTests {
    @Test("holds one task while it has work and none when idle")
    func oneTaskWhileBusy() {
        let app = FakeHost()
        let queue = BackgroundOperationQueue(name: "uploads", host: app)
        #expect(!queue.holdsBackgroundTask)
        let ran = Recorder<Int>()
        for index in 1...3 { queue.addOperation { ran.append(index) } }
        #expect(app.openTaskNames == ["uploads"])
        #expect(queue.operationCount == 3)
        app.runUntilIdle()
        #expect(ran.all == [1, 2, 3])
        #expect(queue.isIdle)
        #expect(!queue.holdsBackgroundTask)
        #expect(app.beganCount == 1 && app.endedCount == 1)
        #expect(app.misuses.isEmpty)
    }

    @Test("the task is begun before the work is dispatched")
    func beginsBeforeDispatch() {
        let app = FakeHost()
        let queue = BackgroundOperationQueue(name: "q", host: app)
        queue.addOperation {}
        #expect(app.pendingWorkCount == 1)
        #expect(app.openTasks.count == 1)
        app.runUntilIdle()
    }

    @Test("work added while draining is covered by the same task")
    func refillWhileDraining() {
        let app = FakeHost()
        let queue = BackgroundOperationQueue(name: "q", host: app)
        let ran = Recorder<String>()
        queue.addOperation {
            ran.append("first")
            queue.addOperation { ran.append("added while draining") }
        }
        app.runUntilIdle()
        #expect(ran.all == ["first", "added while draining"])
        #expect(app.beganCount == 1 && app.endedCount == 1)
        queue.addOperation { ran.append("after idle") }
        #expect(app.openTasks.count == 1)
        app.runUntilIdle()
        #expect(app.beganCount == 2 && app.endedCount == 2)
        #expect(app.openTasks.isEmpty)
    }

    @Test("an async operation keeps the task until it calls finish, and counts once")
    func asyncOperationFinishes() {
        let app = FakeHost()
        let queue = BackgroundOperationQueue(name: "q", host: app)
        let ran = Recorder<String>()
        queue.addOperation(AsyncOperation(name: "fetch") { op in
            app.mainQueue.asyncAfter(.seconds(5)) {
                ran.append("fetched")
                op.finish()
                op.finish()  // misuse: ignored
            }
        })
        queue.addOperation { ran.append("next") }
        app.runUntilIdle()
        #expect(ran.all.isEmpty)
        #expect(queue.holdsBackgroundTask)
        app.advance(by: .seconds(5))
        #expect(ran.all == ["fetched", "next"])
        #expect(queue.isIdle && app.openTasks.isEmpty)
        #expect(app.endedCount == 1)
    }

    @Test("sequential operations start each after the previous one finished")
    func sequential() {
        let app = FakeHost()
        let queue = BackgroundOperationQueue(name: "q", host: app, maxConcurrentOperationCount: 4)
        let ran = Recorder<String>()
        let first = AsyncOperation(name: "1") { op in
            ran.append("1 start")
            app.mainQueue.asyncAfter(.seconds(1)) {
                ran.append("1 end")
                op.finish()
            }
        }
        queue.addSequentialOperations([first, SyncOperation(name: "2") { ran.append("2") }])
        queue.addOperation { ran.append("independent") }
        app.runUntilIdle()
        #expect(ran.all == ["1 start", "independent"])
        app.advance(by: .seconds(1))
        #expect(ran.all == ["1 start", "independent", "1 end", "2"])
        #expect(app.openTasks.isEmpty && app.endedCount == 1)
    }

    @Test("maxConcurrentOperationCount limits how many execute at once")
    func concurrencyLimit() {
        let app = FakeHost()
        let queue = BackgroundOperationQueue(name: "q", host: app, maxConcurrentOperationCount: 2)
        let ops = (1...3).map { index in AsyncOperation(name: "\(index)") { _ in } }
        for op in ops { queue.addOperation(op) }
        app.runUntilIdle()
        #expect(ops.map(\.isExecuting) == [true, true, false])
        ops[0].finish()
        app.runUntilIdle()
        #expect(ops.map(\.isExecuting) == [false, true, true])
        ops[1].finish()
        ops[2].finish()
        #expect(queue.isIdle && app.openTasks.isEmpty)
    }

    @Test("on expiry pending work is dropped, running work cancelled, and the task ends inside the callout")
    func expiry() {
        let app = FakeHost()
        let expired = Counter()
        let queue = BackgroundOperationQueue(name: "q", host: app) { expired.increment() }
        let running = AsyncOperation(name: "running") { _ in }
        let waiting = SyncOperation(name: "waiting") {}
        queue.addOperation(running)
        queue.addOperation(waiting)
        app.runUntilIdle()
        app.enterBackground()
        #expect(app.expire().isEmpty)
        #expect(expired.value == 1)
        #expect(running.isCancelled && !running.isFinished)
        #expect(waiting.isCancelled && waiting.isFinished)
        #expect(app.openTasks.isEmpty)
        running.finish()
        app.runUntilIdle()
        #expect(queue.isIdle && app.openTasks.isEmpty)
        #expect(app.misuses.isEmpty)
    }

    @Test("work added after an expiry asks for a new task")
    func afterExpiry() {
        let app = FakeHost()
        let queue = BackgroundOperationQueue(name: "q", host: app)
        queue.addOperation {}
        app.expire()
        queue.addOperation {}
        #expect(app.openTasks.count == 1)
        app.runUntilIdle()
        #expect(app.openTasks.isEmpty && app.beganCount == 2 && app.endedCount == 2)
    }

    @Test("adding the same operation twice runs it once; a finished-before-start operation is skipped")
    func misuse() {
        let app = FakeHost()
        let queue = BackgroundOperationQueue(name: "q", host: app)
        let runs = Counter()
        let op = SyncOperation { runs.increment() }
        queue.addOperation(op)
        queue.addOperation(op)
        let early = SyncOperation { runs.increment() }
        early.finish()
        queue.addOperation(early)
        app.runUntilIdle()
        #expect(runs.value == 1)
        #expect(queue.isIdle && app.openTasks.isEmpty)
    }

    @Test("cancelAllOperations drops pending work, skips dispatched work, then ends the task")
    func cancelAll() {
        let app = FakeHost()
        let queue = BackgroundOperationQueue(name: "q", host: app)
        let runs = Counter()
        queue.addOperation { runs.increment() }
        queue.addOperation { runs.increment() }
        queue.cancelAllOperations()
        #expect(queue.operationCount == 1)  // the dispatched one still has to be skipped
        app.runUntilIdle()
        #expect(runs.value == 0)
        #expect(app.openTasks.isEmpty && queue.isIdle)
        #expect(app.misuses.isEmpty)
    }

    @Test("a denied begin counts as an expiry: the work is cancelled, onExpiration runs, nothing is ended")
    func deniedBegin() {
        let app = FakeHost()
        app.deniesBegin = true
        let expired = Counter()
        let queue = BackgroundOperationQueue(name: "q", host: app) { expired.increment() }
        let runs = Counter()
        queue.addOperation { runs.increment() }
        app.runUntilIdle()
        #expect(runs.value == 0)
        #expect(expired.value == 1)
        #expect(queue.isIdle)
        #expect(app.misuses.isEmpty && app.endedCount == 0)
    }
}

@Suite("BackgroundWork")
@MainActor  // FakeHost's expiry and lifecycle verbs are, as UIKit's callouts (A3.1)
struct BackgroundWorkTests {
    @Test("inTheBackground runs the closure on the background queue under a task")
    func inTheBackground() {
        let app = FakeHost()
        let work = BackgroundWork(host: app)
        let seen = Recorder<[String]>()
        let task = work.inTheBackground(name: "thumbnails") { seen.append(app.openTaskNames) }
        #expect(task.isRunning)
        app.runUntilIdle()
        #expect(seen.all == [["thumbnails"]])
        #expect(task.state == .ended && app.openTasks.isEmpty)
    }

    @Test("onTheMainThread runs later on the main queue, never inline")
    func onTheMainThread() {
        let app = FakeHost()
        let ran = Counter()
        BackgroundWork(host: app).onTheMainThread { ran.increment() }
        #expect(ran.value == 0)
        app.runUntilIdle()
        #expect(ran.value == 1)
    }

    @Test("expiry before the closure finishes ends the task once; the closure's end is harmless")
    func expiry() {
        let app = FakeHost()
        let cancelled = Counter()
        BackgroundWork(host: app).inTheBackground(name: "slow", onExpiration: { cancelled.increment() }) {}
        app.expire()
        app.runUntilIdle()
        #expect(cancelled.value == 1)
        #expect(app.endedCount == 1 && app.misuses.isEmpty)
    }
}
