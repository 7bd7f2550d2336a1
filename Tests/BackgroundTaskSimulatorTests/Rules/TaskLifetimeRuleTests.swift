import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Rule C4.8: a BGTask object the app releases without completing it logs a programmer error.
/// The app launches at 0 s, submits a refresh at 1 s, goes home at 10 s; the refresh launches at
/// 20 s (30 s of runtime: expiry at 46 s, the kill at 50 s).
@Suite struct TaskLifetimeRuleTests {
    typealias S = ScriptedDevice

    static func launched(_ behaviour: TaskBehaviour) -> ScriptedDevice {
        let script = S.withTasks(identifiers: [S.refresh], behaviour: behaviour)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.launchEligibleTask() }
        return script
    }

    static let deallocLine = "Task <1> dealloc'd without completing. This is a programmer error."

    @Test("C4.8: a BGTask released without completing logs 'dealloc'd without completing', and is still killed at the end of its time")
    func deallocWithoutCompleting() {
        let script = Self.launched(.noHandler)
        script.at(.seconds(21)) { $0.launchedTasks.value.removeAll() }
        script.run(until: .seconds(100))
        let logged = script.events { event -> String? in
            if case .console(let line) = event, line.contains("dealloc'd") { line } else { nil }
        }
        #expect(logged.map(\.value) == [Self.deallocLine])
        #expect(logged.map(\.time) == [.seconds(21)])
        #expect(script.bgExpiries.map(\.time) == [.seconds(46)])  // C4.5: the system completes it
    }

    @Test("C4.8: a task released after it completed, or whose process died, logs nothing")
    func completedOrDeadTasksLogNothing() {
        let completed = Self.launched(.completeAfter(.seconds(5)))
        completed.at(.seconds(30)) { $0.launchedTasks.value.removeAll() }
        completed.run(until: .seconds(100))
        #expect(!completed.console.contains { $0.contains("dealloc'd") })

        let killed = Self.launched(.never)  // an expiration handler that does nothing: killed at 50 s
        killed.at(.seconds(60)) { $0.launchedTasks.value.removeAll() }
        killed.run(until: .seconds(100))
        #expect(killed.terminations.map(\.time) == [.seconds(50)])
        #expect(!killed.console.contains { $0.contains("dealloc'd") })
    }

    @Test("C4.8: an expiration handler that captures its task keeps it alive until the system calls and clears it")
    func handlerKeepsTaskAlive() {
        let hooks = ScriptedHooks()
        let script = ScriptedDevice(permitted: [S.refresh], hooks: hooks)
        hooks.didFinishLaunching = { context in
            _ = context.taskScheduler.register(forTaskWithIdentifier: S.refresh, using: nil) { task in
                // Keeps no reference to the task but the handler's own capture; never completes.
                task.expirationHandler = { _ = task.identifier }
            }
        }
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.launchEligibleTask() }
        script.run(until: .seconds(100))
        let logged = script.events { event -> Bool? in
            if case .console(let line) = event, line == Self.deallocLine { true } else { nil }
        }
        // C4.4: the handler is cleared after the system calls it at 46 s; that frees the task.
        #expect(logged.map(\.time) == [.seconds(46)])
        #expect(script.terminations.map(\.time) == [.seconds(50)])  // C4.6
    }
}
