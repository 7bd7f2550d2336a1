@testable import DeterministicSimulation
import Testing

/// ``Scheduler/callOnMainActor(_:_:)``: how a simulated OS calls what the SDK declares
/// `@MainActor` (an expiration handler, a lifecycle observer) on the run's simulated main thread.
@Suite("Main-actor callouts")
struct MainActorCalloutTests {
    @Test("a main-actor callout off the simulated main thread stops the process with a message naming it")
    func callOutOffTheMainThreadTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = Scheduler(choices: ChoiceSource(replaying: ChoiceSequence()))
            let main = scheduler.makeQueue(label: "p1.main", kind: .serial)
            let other = scheduler.makeQueue(label: "p1.global", kind: .serial)
            scheduler.setMainThread(main)
            scheduler.async(on: other) {
                scheduler.callOnMainActor("the expiration handler of background task 1") {}
            }
            _ = scheduler.run(until: .seconds(1))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("the expiration handler of background task 1 is @MainActor"), "\(stderr)")
    }

    @Test("a main-actor callout from a thread outside any run stops the process with the same message")
    func callOutOutsideTheRunTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = Scheduler(choices: ChoiceSource(replaying: ChoiceSequence()))
            scheduler.setMainThread(scheduler.makeQueue(label: "p1.main", kind: .serial))
            scheduler.callOnMainActor("a lifecycle observer (didEnterBackground)") {}  // not in a job
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("a lifecycle observer (didEnterBackground) is @MainActor"), "\(stderr)")
        #expect(stderr.contains("outside any job of this run"), "\(stderr)")
    }

    @Test("the off-main-thread message names the callback, the queue and the fix")
    func offMainThreadMessage() {
        let message = Scheduler.offMainThread("the expiration handler of background task 1", queue: "p1.global")
        #expect(message.hasPrefix("the expiration handler of background task 1 is @MainActor"))
        #expect(message.contains("on simulated queue 'p1.global'"))
        #expect(Scheduler.offMainThread("a lifecycle observer (didEnterBackground)", queue: nil)
                    .contains("outside any job of this run"))
    }

    @Test("a main-actor callout in a job of the simulated main thread passes the runtime's isolation check")
    func callOutOnTheMainThread() {
        let scheduler = Scheduler(choices: ChoiceSource(replaying: ChoiceSequence()))
        let main = scheduler.makeQueue(label: "p1.main", kind: .serial)
        scheduler.setMainThread(main)
        let log = PlainLog(scheduler)
        scheduler.async(on: main) {
            scheduler.callOnMainActor("a lifecycle observer (didEnterBackground)") {
                MainActor.preconditionIsolated()
                log.note("observer on \(log.place)")
            }
        }
        _ = scheduler.run(until: .seconds(1))
        #expect(log.lines == ["0.000000s observer on p1.main"])
    }

    @Test("without an async domain (a run that never enabled Swift concurrency) the callout still passes the check")
    func callOutWithoutAsync() {
        let scheduler = Scheduler(choices: ChoiceSource(replaying: ChoiceSequence()))
        let main = scheduler.makeQueue(label: "p1.main", kind: .serial)
        scheduler.setMainThread(main)
        #expect(!scheduler.hasAsync)
        let log = PlainLog(scheduler)
        scheduler.async(on: main) {
            scheduler.callOnMainActor("the expiration handler of background task 1") {
                MainActor.assumeIsolated { log.note("handler") }  // what app code inside a handler may do
            }
        }
        _ = scheduler.run(until: .seconds(1))
        #expect(log.lines == ["0.000000s handler"])
    }
}
