import BackgroundTaskKit
import Testing

@Suite("InFlightWorkTracker")
@MainActor  // FakeHost's expiry and lifecycle verbs are, as UIKit's callouts (A3.1)
struct InFlightWorkTrackerTests {
    @Test("no task in the foreground; one task from background entry until the work is done")
    func backgroundEntry() {
        let app = FakeHost()
        let tracker = InFlightWorkTracker(name: "downloads", host: app)
        let work = tracker.beginWork(name: "a.zip")
        #expect(app.openTasks.isEmpty)
        app.enterBackground()
        #expect(app.openTaskNames == ["downloads"])
        work.finish()
        #expect(app.openTasks.isEmpty)
        #expect(app.beganCount == 1 && app.endedCount == 1)
    }

    @Test("going back and forth never holds more than one task and never leaks one (P1)")
    func backAndForth() {
        let app = FakeHost()
        let tracker = InFlightWorkTracker(name: "downloads", host: app)
        let work = tracker.beginWork(name: "a.zip")
        for _ in 0..<5 {
            app.enterBackground()
            #expect(app.openTasks.count == 1)
            app.enterForeground()
            #expect(app.openTasks.isEmpty)
        }
        app.enterBackground()
        app.enterBackground()  // a repeated notification: still one task
        #expect(app.openTasks.count == 1)
        work.finish()
        #expect(app.openTasks.isEmpty)
        #expect(app.beganCount == app.endedCount)
        #expect(app.misuses.isEmpty)
    }

    @Test("a denied begin counts as an expiry: the handler runs outside the tracker's lock and may finish work")
    func deniedBeginFinishesWork() {
        // Found by the harness: the handler ran inside the tracker's lock and finishing a work
        // item there took the lock again (a trap).
        let app = FakeHost()
        app.deniesBegin = true
        let items = Recorder<InFlightWork>()
        let tracker = InFlightWorkTracker(name: "downloads", host: app) {
            for work in items.all { work.finish() }
        }
        items.append(tracker.beginWork(name: "a.zip"))
        items.append(tracker.beginWork(name: "b.zip"))
        app.enterBackground()
        #expect(tracker.inFlightCount == 0)
        #expect(!tracker.holdsBackgroundTask)
        // Each refused begin runs the handler once; finishing the first item asks again while
        // the second is in flight, and that begin is refused too.
        #expect(app.deniedCount == 2)
        #expect(app.endedCount == 0 && app.misuses.isEmpty)
    }

    @Test("work begun in the background gets a task at once")
    func beginInBackground() {
        let app = FakeHost(applicationState: .background)
        let tracker = InFlightWorkTracker(name: "sync", host: app)
        let first = tracker.beginWork(name: "1")
        let second = tracker.beginWork(name: "2")
        #expect(app.openTasks.count == 1)
        #expect(tracker.inFlightCount == 2)
        first.finish()
        #expect(app.openTasks.count == 1)
        second.finish()
        second.finish()  // misuse: ignored
        #expect(app.openTasks.isEmpty && tracker.inFlightCount == 0)
    }

    @Test("expiry runs the handler and ends the task inside the callout, and the late finish does not end again (P4)")
    func expiry() {
        let app = FakeHost()
        let expired = Counter()
        let tracker = InFlightWorkTracker(name: "backup", host: app) { expired.increment() }
        let work = tracker.beginWork(name: "backup")
        app.enterBackground()
        #expect(app.expire().isEmpty)
        #expect(expired.value == 1)
        work.finish()
        #expect(app.endedCount == 1 && app.misuses.isEmpty)
    }

    @Test("releasing a work item finishes it; releasing the tracker ends its task")
    func release() {
        let app = FakeHost(applicationState: .background)
        var tracker: InFlightWorkTracker? = InFlightWorkTracker(name: "t", host: app)
        do { _ = tracker?.beginWork(name: "dropped") }
        #expect(tracker?.inFlightCount == 0)
        #expect(app.openTasks.isEmpty)
        let kept = tracker?.beginWork(name: "kept")
        #expect(app.openTasks.count == 1)
        tracker = nil
        #expect(app.openTasks.isEmpty)
        kept?.finish()
        #expect(app.misuses.isEmpty)
    }
}
