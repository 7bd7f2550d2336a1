@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Coverage's `stateEvents` and `conditions` categories: each condition is counted by the event
/// sequence that reaches it and not by its nearest miss, and (state, event) pairs name the state
/// as of the event.
@Suite struct CoverageConditionTests {
    /// The coverage of `events`, fed as the run monitor feeds them (facts first).
    static func coverage(_ events: [SimEvent]) -> Coverage {
        let facts = RunFacts()
        let counter = CoverageCounter()
        for event in events {
            facts.observe(event, at: .zero)
            counter.observe(event, facts: facts)
        }
        return counter.coverage()
    }

    static func count(_ condition: CoverageCondition, _ events: [SimEvent]) -> Int {
        coverage(events).count("conditions", condition.rawValue)
    }

    static let inBackground: [SimEvent] = [.processLaunched(process: 1, inBackground: false),
                                           .stateChanged(from: .notRunning, to: .active),
                                           .stateChanged(from: .active, to: .background)]
    static let begin = SimEvent.taskBegan(id: 1, name: "upload", state: .background)
    static let end = SimEvent.taskEnded(id: 1, name: "upload")
    static func launch(_ task: Int) -> SimEvent { .bgTaskLaunched(identifier: "refresh", task: task, kind: "appRefresh") }
    static func complete(_ task: Int) -> SimEvent {
        .bgTaskCompleted(identifier: "refresh", task: task, success: true, repeated: false)
    }
    static let suspend = SimEvent.stateChanged(from: .background, to: .suspended)

    @Test("task held at suspension (A3.2): counted with a task open, not once it ended")
    func heldAtSuspension() {
        #expect(Self.count(.taskHeldAtSuspension, Self.inBackground + [Self.begin, Self.suspend]) == 1)
        #expect(Self.count(.taskHeldAtSuspension, Self.inBackground + [Self.begin, Self.end, Self.suspend]) == 0)
    }

    @Test("expiry with a task held (A3.4): counted when the callout names tasks")
    func expiryWithTask() {
        #expect(Self.count(.expiryWithTaskHeld, [.expirationCallout(ids: [1], early: false)]) == 1)
        #expect(Self.count(.expiryWithTaskHeld, [.expirationCallout(ids: [], early: true)]) == 0)
    }

    @Test("a BGTask launched while a UIKit task is held, not after it ended")
    func launchWhileHeld() {
        #expect(Self.count(.bgTaskLaunchedWhileTaskHeld, Self.inBackground + [Self.begin, Self.launch(1)]) == 1)
        #expect(Self.count(.bgTaskLaunchedWhileTaskHeld, Self.inBackground + [Self.begin, Self.end, Self.launch(1)]) == 0)
    }

    @Test("a second launch before the first BGTask completed; none after completion or a new process")
    func secondLaunchBeforeCompletion() {
        #expect(Self.count(.bgTaskLaunchedBeforePreviousCompleted, Self.inBackground + [Self.launch(1), Self.launch(2)]) == 1)
        #expect(Self.count(.bgTaskLaunchedBeforePreviousCompleted,
                           Self.inBackground + [Self.launch(1), Self.complete(1), Self.launch(2)]) == 0)
        #expect(Self.count(.bgTaskLaunchedBeforePreviousCompleted,
                           Self.inBackground + [Self.launch(1), .processLaunched(process: 2, inBackground: true), Self.launch(2)]) == 0)
    }

    @Test("the third BGTask launch in a row without an open; an open starts the count again")
    func thirdLaunchWithoutOpen() {
        let three = [Self.launch(1), Self.complete(1), Self.launch(2), Self.complete(2), Self.launch(3)]
        #expect(Self.count(.thirdBackgroundLaunchWithoutOpen, Self.inBackground + three) == 1)
        let opened: [SimEvent] = [Self.launch(1), Self.complete(1), Self.launch(2), Self.complete(2),
                                  .stateChanged(from: .background, to: .active), Self.launch(3)]
        #expect(Self.count(.thirdBackgroundLaunchWithoutOpen, Self.inBackground + opened) == 0)
    }

    @Test("the network down with a request in flight, not after the request finished")
    func networkDownInFlight() {
        let start = SimEvent.networkRequest(request: 1, name: "digest", work: 1, outcome: "start")
        let done = SimEvent.networkRequest(request: 1, name: "digest", work: 1, outcome: "ok")
        #expect(Self.count(.networkDownWithRequestInFlight, [start, .networkChanged(available: false)]) == 1)
        #expect(Self.count(.networkDownWithRequestInFlight, [start, done, .networkChanged(available: false)]) == 0)
    }

    @Test("conditions are listed in order, each with its own counter")
    func conditionsLayout() {
        let entries = Self.coverage([]).entries("conditions")
        #expect(entries.map(\.name) == CoverageCondition.ordered.map(\.rawValue))
        for (index, condition) in CoverageCondition.ordered.enumerated() { #expect(condition.ordinal == index) }
        // The counter skips other kinds by a 64-bit mask of kind numbers.
        #expect(SimEvent.kindCount <= 64, "ConditionState.kindMask needs a wider mask")
    }

    @Test("a (state, event) pair names the state as of the event: background/task.begin, suspended after the change")
    func stateEventPairs() {
        let coverage = Self.coverage(Self.inBackground + [Self.begin, Self.suspend])
        #expect(coverage.count("stateEvents", "background/task.begin") == 1)
        #expect(coverage.count("stateEvents", "active/task.begin") == 0)
        #expect(coverage.count("stateEvents", "suspended/app.state") == 1)
        #expect(coverage.entries("stateEvents").count == AppProcessState.allCases.count * SimEvent.allNames.count)
    }
}
