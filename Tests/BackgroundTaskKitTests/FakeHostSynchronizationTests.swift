import BackgroundTaskKit
import Testing

/// The host's synchronisation seams on ``FakeHost``: `sync` runs at once on the test's thread and
/// a `sync` deadlock is a recorded misuse; locks, semaphores and shared state are real ones.
@Suite("FakeHost synchronisation")
struct FakeHostSynchronizationTests {
    @Test("sync on a fake queue runs its work at once on the calling thread, ahead of queued work")
    func syncRunsAtOnce() {
        let app = FakeHost()
        let db = app.makeSerialQueue(label: "db")
        let log = Recorder<String>()
        db.async { log.append("queued") }
        let count = db.sync { () -> Int in
            log.append("sync")
            return 3
        }
        #expect(count == 3)
        #expect(log.all == ["sync"])
        app.runUntilIdle()
        #expect(log.all == ["sync", "queued"])
        #expect(app.misuses.isEmpty)
    }

    @Test("a sync from a job onto its own serial queue is a recorded deadlock; onto another queue or the background queue it is not")
    func syncOntoOwnQueueIsAMisuse() {
        let app = FakeHost()
        let db = app.makeSerialQueue(label: "db")
        let log = Recorder<String>()
        app.backgroundQueue.async { app.backgroundQueue.sync { log.append("background in background") } }
        app.mainQueue.async { db.sync { log.append("db from main") } }
        app.runUntilIdle()
        #expect(app.misuses.isEmpty, "\(app.misuses)")
        app.mainQueue.async { app.mainQueue.sync { log.append("main from main") } }
        app.runUntilIdle()
        #expect(app.misuses == ["dispatch_sync called on queue already owned by current thread: main"])
        #expect(log.all == ["background in background", "db from main", "main from main"])
    }

    @Test("FakeHost's lock, semaphore and shared state work as on a device")
    func realSynchronisation() {
        let app = FakeHost()
        let lock = app.makeLock(name: "sent")
        let done = app.makeSemaphore(name: "done", value: 1)
        let sent = app.makeShared(name: "sent", initialValue: 0)
        app.backgroundQueue.async {
            done.wait()  // takes the one unit at once
            lock.withLock { sent.value += 1 }
            done.signal()
        }
        app.schedulingPoint()
        app.runUntilIdle()
        done.wait()
        #expect(lock.withLock { sent.value } == 1)
        done.signal()  // a DispatchSemaphore must not be released below its initial value
    }
}
