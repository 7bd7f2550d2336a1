import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// The documented sequences, scripted with no randomness and checked event by event (iOS 17:
/// 30 s budget, handlers 4 s before the deadline, suspension 1 s after the last task ends).
@Suite struct ScriptedScenarioTests {
    typealias S = ScriptedDevice

    /// The log from `from` on, as "time name" lines, without app-state changes.
    static func timeline(_ script: ScriptedDevice, from: VirtualTime, prefixes: [String]) -> [String] {
        script.log.filter { entry in entry.time >= from && prefixes.contains { entry.event.name.hasPrefix($0) } }
            .map { "\($0.time.microseconds / 1_000_000) \($0.event.name)" }
    }

    @Test("A3.2: enter background, begin, handlers at budget minus lead, the handler ends, suspension")
    func expiryHandledThenSuspended() {
        let script = S.backgrounded()
        let observation = Box<LifecycleObservation?>(nil)
        script.hooks.didFinishLaunching = { context in
            let app = context.application
            observation.value = app.addLifecycleObserver { event in
                guard event == .didEnterBackground else { return }
                let id = Box(BackgroundTaskIdentifier.invalid)
                id.value = app.beginBackgroundTask(withName: "save") { app.endBackgroundTask(id.value) }
            }
        }
        script.run(until: .seconds(60))
        #expect(Self.timeline(script, from: .seconds(10), prefixes: ["lifecycle", "task.", "budget", "app.state"]) == [
            "10 app.state", "10 lifecycle.willResignActive", "10 app.state", "10 budget.start",
            "10 lifecycle.didEnterBackground", "10 task.begin",
            "36 task.expirationCallout", "36 task.expirationHandler", "36 task.end", "36 task.expirationHandlersReturned",
            "37 app.state",
        ])
        #expect(script.states.last == .suspended)
    }

    @Test("A7.1: a handler that does not end its task: the warning, then the watchdog kill at the deadline")
    func leakedTaskKilled() {
        let script = S.backgrounded()
        script.at(.seconds(10)) { $0.begin("leak", onExpiry: .nothing) }
        script.run(until: .seconds(60))
        #expect(Self.timeline(script, from: .seconds(11), prefixes: ["task.", "console", "process."]) == [
            "36 task.expirationCallout", "36 task.expirationHandler", "36 task.expirationHandlersReturned",
            "36 console", "40 console", "40 process.terminated",
        ])
        #expect(script.terminations.first?.value.exceptionCode == "0x8badf00d")
    }

    @Test("A4.6: a task begun in the foreground stays dormant; two tasks then share one budget")
    func dormantThenShared() {
        let script = S.backgrounded(homeAt: .seconds(100))
        script.at(.seconds(1)) { $0.begin("early") }
        script.at(.seconds(110)) { $0.begin("late") }
        script.run(until: .seconds(200))
        #expect(script.deadlines == [.seconds(130)])
        let callouts = script.events { if case .expirationCallout(let ids, _) = $0 { ids } else { nil } }
        #expect(callouts.map(\.time) == [.seconds(126)] && callouts.map(\.value) == [[1, 2]])
        #expect(script.suspendedAt == .seconds(127))
    }

    @Test("C4.6: a terminated app is launched in the background for a refresh task, completes, and is suspended")
    func refreshLaunchCompleteSuspend() {
        let script = S.withTasks(identifiers: [S.refresh], behaviour: .completeAfter(.seconds(5)))
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh, earliest: $0.scheduler.now.addingTimeInterval(900)) }
        script.at(.seconds(2)) { $0.home() }
        script.at(.seconds(10)) { $0.memoryPressureKill() }
        script.at(.seconds(500)) { $0.launchEligibleTask() }
        script.at(.seconds(901)) { $0.launchEligibleTask() }
        script.at(.seconds(950)) { $0.launchEligibleTask() }
        script.run(until: .seconds(1_000))
        #expect(Self.timeline(script, from: .seconds(500), prefixes: ["process.", "lifecycle.", "bgtask.", "app.state"]) == [
            "901 process.launch", "901 app.state", "901 bgtask.register", "901 lifecycle.didFinishLaunching",
            "901 bgtask.launch", "906 bgtask.complete", "907 app.state",
        ])
        #expect(script.states.last == .suspended)
    }

    @Test("C1.4: a handler registered after launch finished crashes the app at once")
    func lateRegistration() {
        let script = S.withTasks(identifiers: [])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(3)) { script in
            script.app.mainQueue.async { _ = script.register(S.refresh) }
        }
        script.run(until: .seconds(10))
        #expect(Self.timeline(script, from: .seconds(3), prefixes: ["process.", "bgtask."]) == ["3 process.terminated"])
        #expect(script.terminations.first?.value == .exception(name: "NSInternalInconsistencyException",
            reason: "All launch handlers must be registered before application finishes launching"))
        #expect(script.states.last == .notRunning)
    }
}
