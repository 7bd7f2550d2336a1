import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Termination done right (issue 19): who gets `applicationWillTerminate`, its time limit, and
/// memory warnings before jetsam. Each test names the reference rule it checks.
@Suite struct TerminationRuleTests {
    /// Hooks whose `willTerminate` blocks the main thread for `seconds`.
    static func blockingWillTerminate(_ seconds: Int64) -> (ScriptedHooks, Box<LifecycleObservation?>) {
        let hooks = ScriptedHooks()
        let observation = Box<LifecycleObservation?>(nil)
        hooks.didFinishLaunching = { context in
            let app = context.application
            observation.value = app.addLifecycleObserver { event in
                if event == .willTerminate { app.performBlockingWork(for: .seconds(seconds)) }
            }
        }
        return (hooks, observation)
    }

    /// A running app in the app switcher, force-quit at 6 s, whose willTerminate blocks.
    static func forceQuitInSwitcher(blockingFor seconds: Int64, profile: OSProfile = .ios17,
                                    environment: EnvironmentConfig = .scripted) -> ScriptedDevice {
        let (hooks, observation) = blockingWillTerminate(seconds)
        let script = ScriptedDevice.backgrounded(profile, homeAt: .seconds(30), environment: environment, hooks: hooks)
        script.at(.seconds(5)) { $0.interrupt(appSwitcher: true) }
        script.at(.seconds(6)) { $0.forceQuit() }
        script.run(until: .seconds(60))
        withExtendedLifetime(observation) {}
        return script
    }

    @Test("A10.2: applicationWillTerminate running past about 5 s ends in a watchdog kill (0x8badf00d)",
          arguments: [false, true])
    func willTerminateWatchdog(threads: Bool) {
        let environment = threads ? SimulatedThreadsTests.threadsNoPreemption : SimulatedThreadsTests.oneThread
        let script = Self.forceQuitInSwitcher(blockingFor: 8, environment: environment)
        #expect(script.lifecycle.last == .willTerminate)
        #expect(script.terminations.count == 1)
        #expect(script.terminations.first?.value.exceptionCode == "0x8badf00d")
        #expect(script.terminations.first.map { $0.time > .seconds(11) } == true)
    }

    @Test("A10.2: a willTerminate that returns within its limit ends as the kill it was",
          arguments: [false, true])
    func willTerminateInTime(threads: Bool) {
        let environment = threads ? SimulatedThreadsTests.threadsNoPreemption : SimulatedThreadsTests.oneThread
        let script = Self.forceQuitInSwitcher(blockingFor: 3, environment: environment)
        #expect(script.terminations.map(\.value) == [.forceQuit])
        #expect(script.terminations.map(\.time) == [.seconds(9)])
    }

    @Test("A10.2: OSProfile.willTerminateLimit sets the limit (8 s of work passes under a 10 s limit)")
    func willTerminateLimitIsAParameter() {
        var profile = OSProfile.ios17
        profile.willTerminateLimit = .seconds(10)
        let script = Self.forceQuitInSwitcher(blockingFor: 8, profile: profile)
        #expect(script.terminations.map(\.value) == [.forceQuit])
    }

    @Test("B3.4: a running background app gets didReceiveMemoryWarning, then the jetsam after the lead",
          arguments: [0.0, 1.0])
    func memoryWarningBeforeJetsam(probability: Double) {
        var profile = OSProfile.ios17
        profile.memoryWarningBeforeJetsamProbability = probability
        profile.memoryWarningLead = .seconds(3)
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(5)) { _ = $0.begin() }
        script.at(.seconds(20)) { $0.memoryPressureKill() }
        script.run(until: .seconds(40))
        let warned = probability == 1
        #expect(script.lifecycle.contains(.didReceiveMemoryWarning) == warned)
        #expect(!script.lifecycle.contains(.willTerminate))  // B3.4: no callback (willTerminateOnJetsam off)
        #expect(script.terminations.map(\.value) == [.memoryPressure])
        #expect(script.terminations.map(\.time) == [warned ? .seconds(23) : .seconds(20)])
    }

    @Test("B3.4: an app suspended between the warning and the kill dies without any further callback")
    func suspendedAfterWarning() {
        var profile = OSProfile.ios17
        profile.memoryWarningBeforeJetsamProbability = 1
        profile.memoryWarningLead = .seconds(5)
        let script = ScriptedDevice.backgrounded(profile)
        let task = Box(BackgroundTaskIdentifier.invalid)
        script.at(.seconds(10)) { task.value = $0.begin() }  // holds the app until it is ended
        script.at(.seconds(12)) { $0.memoryPressureKill() }
        script.at(.seconds(13)) { $0.end(task.value) }
        script.run(until: .seconds(40))
        #expect(script.states.contains(.suspended))
        #expect(script.lifecycle.last == .didReceiveMemoryWarning)
        #expect(script.terminations.map(\.time) == [.seconds(17)])
    }
}
