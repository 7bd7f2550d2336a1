@testable import BackgroundTaskKit
import Testing

/// `LaunchedTask`'s order on launch: the expiration handler first, then the repeating refresh's
/// resubmission exactly once, before any completion (a race the simulator found under
/// preemption: a refresh that expired before its handler was set was completed by the system,
/// C4.5, with no next request).
@Suite("LaunchedTask order")
struct LaunchedTaskOrderTests {
    @Test("an expiry before the launch goes on resubmits first, then completes; prepare() does not resubmit again")
    func expiryBeforePrepare() {
        let task = FakeScheduledTask(identifier: "com.example.refresh")
        let log = Recorder<String>()
        let launched = LaunchedTask(task: task) {
            log.append("resubmit (completions so far: \(task.completions.count))")
            return nil
        }
        #expect(task.expirationHandler != nil, "the handler is set before anything can yield")
        task.expire()
        #expect(task.completions == [false])
        launched.prepare()
        #expect(log.all == ["resubmit (completions so far: 0)"])
    }

    @Test("a normal launch resubmits in prepare(), once, and a later completion does not resubmit")
    func prepareThenComplete() {
        let task = FakeScheduledTask(identifier: "com.example.refresh")
        let log = Recorder<String>()
        let launched = LaunchedTask(task: task) {
            log.append("resubmit")
            return .notRegistered(identifier: "com.example.refresh")
        }
        launched.prepare()
        launched.complete(success: true)
        #expect(log.all == ["resubmit"])
        #expect(launched.resubmissionError == .notRegistered(identifier: "com.example.refresh"))
        #expect(task.completions == [true])
    }
}
