import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Rules B1-B4: states, transitions and their notifications, scenes, termination, background
/// launch.
@Suite struct LifecycleRuleTests {
    /// A device that records `applicationState` at every lifecycle notification.
    static func observing(_ profile: OSProfile = .ios17) -> (ScriptedDevice, Box<[(LifecycleEvent, ApplicationState)]>) {
        let hooks = ScriptedHooks()
        let seen = Box<[(LifecycleEvent, ApplicationState)]>([])
        let observation = Box<LifecycleObservation?>(nil)
        hooks.didFinishLaunching = { context in
            let app = context.application
            seen.value.append((.didFinishLaunching, app.applicationState))
            observation.value = app.addLifecycleObserver { event in
                if event != .didFinishLaunching { seen.value.append((event, app.applicationState)) }
            }
        }
        return (ScriptedDevice(profile: profile, hooks: hooks), seen)
    }

    // MARK: B1

    @Test("B1.1: the five states: not running, inactive, active, background, suspended")
    func fiveStates() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(20)) { $0.memoryPressureKill() }
        script.run(until: .seconds(30))
        #expect(script.states == [.inactive, .active, .inactive, .background, .suspended, .notRunning])
        #expect(Set(AppProcessState.allCases) == [.notRunning, .inactive, .active, .background, .suspended])
    }

    @Test("B1.2: applicationState reports inactive, active or background, never more")
    func applicationState() {
        let (script, seen) = Self.observing()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.open() }
        script.run(until: .seconds(30))
        #expect(seen.value.map(\.1) == [.inactive, .active, .inactive, .background, .inactive, .active])
        #expect(AppProcessState.suspended.applicationState == .background)
        #expect(ApplicationState.allCases.map(\.rawValue) == [0, 1, 2])
    }

    @Test("B1.3: with OSProfile.supportsScenes the scene connects after launch, before becoming active")
    func sceneConnects() {
        for profile in [OSProfile.ios17, .ios12] {
            let script = ScriptedDevice.backgrounded(profile)
            script.run(until: .seconds(5))
            let expected = profile.supportsScenes
                ? ["lifecycle.didFinishLaunching", "scene.willConnect", "lifecycle.didBecomeActive"]
                : ["lifecycle.didFinishLaunching", "lifecycle.didBecomeActive"]
            #expect(script.names(matching: "lifecycle.", "scene.") == expected, "\(profile.name)")
        }
    }

    @Test("B1.3: after a background launch the scene connects on the first return to the foreground")
    func sceneConnectsAfterBackgroundLaunch() {
        let script = ScriptedDevice()
        script.at(.zero) { $0.launch(inBackground: true) }
        script.at(.seconds(5)) { $0.open() }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(15)) { $0.open() }
        script.run(until: .seconds(20))
        #expect(script.names(matching: "lifecycle.", "scene.") == [
            "lifecycle.didFinishLaunching", "scene.willConnect", "lifecycle.willEnterForeground",
            "lifecycle.didBecomeActive", "lifecycle.willResignActive", "lifecycle.didEnterBackground",
            "lifecycle.willEnterForeground", "lifecycle.didBecomeActive",
        ])
    }

    @Test("B1.3: a scene disconnected in the background reconnects on return; the sceneDisconnect weight drives it")
    func sceneDisconnects() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(10)) { $0.begin() }
        script.at(.seconds(12)) { $0.perform(.sceneDisconnect) }
        script.at(.seconds(13)) { $0.perform(.sceneDisconnect) }
        script.at(.seconds(20)) { $0.open() }
        script.run(until: .seconds(25))
        #expect(script.names(matching: "scene.") == ["scene.willConnect", "scene.didDisconnect", "scene.willConnect"])
        #expect(DriverProbe.isDrivenByWeight(.sceneDisconnect))
        #expect(DriverProbe.count(of: .sceneDisconnect, weight: 5, profile: .ios12) == 0)
    }

    // MARK: B2

    @Test("B2.1: launch to the foreground: inactive with didFinishLaunching, then active")
    func launchToForeground() {
        let (script, seen) = Self.observing()
        script.at(.zero) { $0.launch() }
        script.run(until: .seconds(1))
        #expect(script.states == [.inactive, .active])
        #expect(seen.value.map(\.0) == [.didFinishLaunching, .didBecomeActive])
        #expect(seen.value.first?.1 == .inactive)
    }

    @Test("B2.2: launch into the background: no inactive step, applicationState background at launch")
    func launchToBackground() {
        let (script, seen) = Self.observing()
        script.at(.zero) { $0.launch(inBackground: true) }
        script.run(until: .seconds(10))
        #expect(script.states == [.background, .suspended])
        #expect(seen.value.map(\.0) == [.didFinishLaunching])
        #expect(seen.value.first?.1 == .background)
        #expect(script.events { if case .processLaunched(_, let bg) = $0 { bg } else { nil } }.map(\.value) == [true])
    }

    @Test("B2.3: home: willResignActive, didEnterBackground, suspended OSProfile.suspensionDelay later",
          arguments: [Int64(1), 3])
    func homeThenSuspend(delaySeconds: Int64) {
        var profile = OSProfile.ios17
        profile.suspensionDelay = .seconds(delaySeconds)
        let script = ScriptedDevice.backgrounded(profile)
        script.run(until: .seconds(30))
        #expect(script.names(matching: "lifecycle.").suffix(2) == ["lifecycle.willResignActive", "lifecycle.didEnterBackground"])
        #expect(script.stateTimes.suffix(3).map(\.value) == [.inactive, .background, .suspended])
        #expect(script.suspendedAt == .seconds(10 + delaySeconds))
    }

    @Test("B2.4: returning: willEnterForeground, then didBecomeActive, through inactive")
    func returning() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(20)) { $0.open() }
        script.run(until: .seconds(30))
        #expect(script.names(matching: "lifecycle.").suffix(2) == ["lifecycle.willEnterForeground", "lifecycle.didBecomeActive"])
        #expect(script.states.suffix(3) == [.suspended, .inactive, .active])
    }

    @Test("B2.5: an interruption goes active to inactive and back, or on to the background")
    func interruptions() {
        let script = ScriptedDevice.backgrounded(homeAt: .seconds(30))
        script.at(.seconds(10)) { $0.interrupt() }
        script.at(.seconds(15)) { $0.endInterruption() }
        script.at(.seconds(20)) { $0.interrupt(appSwitcher: true) }
        script.run(until: .seconds(40))
        #expect(script.states == [.inactive, .active, .inactive, .active, .inactive, .background, .suspended])
        #expect(script.lifecycle == [.didFinishLaunching, .didBecomeActive, .willResignActive, .didBecomeActive,
                                     .willResignActive, .didEnterBackground])
    }

    @Test("B2.7: the state after launch fluctuates between active and background until termination")
    func fluctuates() {
        let script = ScriptedDevice.backgrounded()
        for cycle in Int64(1)...3 {
            script.at(.seconds(20 * cycle)) { $0.open() }
            script.at(.seconds(20 * cycle + 10)) { $0.home() }
        }
        script.run(until: .seconds(100))
        let visible = script.states.filter { $0 == .active || $0 == .background }
        #expect(visible == [.active, .background, .active, .background, .active, .background, .active, .background])
    }

    // MARK: B3

    @Test("B3.1: a suspended app is killed without notice, whatever OSProfile.willTerminateOnJetsam says",
          arguments: [true, false])
    func suspendedKilledSilently(willTerminate: Bool) {
        var profile = OSProfile.ios17
        profile.willTerminateOnJetsam = willTerminate
        profile.memoryWarningBeforeJetsamProbability = 1
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(20)) { $0.memoryPressureKill() }
        script.run(until: .seconds(30))
        #expect(!script.lifecycle.contains(.willTerminate))
        #expect(!script.lifecycle.contains(.didReceiveMemoryWarning))  // suspended: no code runs
        #expect(script.terminations.map(\.value) == [.memoryPressure])
        #expect(script.terminations.map(\.time) == [.seconds(20)])
    }

    @Test("B3.2: a force-quit of a suspended app kills the process with no notification",
          arguments: [true, false])
    func forceQuit(willTerminateOnForceQuit: Bool) {
        var profile = OSProfile.ios17
        profile.willTerminateOnForceQuit = willTerminateOnForceQuit
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(20)) { $0.forceQuit() }
        script.run(until: .seconds(40))
        #expect(script.lifecycle == [.didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground])
        #expect(script.terminations.map(\.value) == [.forceQuit])
        #expect(script.terminations.map(\.time) == [.seconds(20)])
    }

    @Test("B3.3: OSProfile.willTerminateOnForceQuit: a running app swiped away in the app switcher gets willTerminate",
          arguments: [true, false])
    func forceQuitRunningApp(willTerminate: Bool) {
        var profile = OSProfile.ios17
        profile.willTerminateOnForceQuit = willTerminate
        let script = ScriptedDevice.backgrounded(profile, homeAt: .seconds(30))
        script.at(.seconds(5)) { $0.interrupt(appSwitcher: true) }
        script.at(.seconds(6)) { $0.forceQuit() }
        script.run(until: .seconds(40))
        let expected: [LifecycleEvent] = [.didFinishLaunching, .didBecomeActive, .willResignActive]
        #expect(script.lifecycle == expected + (willTerminate ? [.willTerminate] : []))
        #expect(script.terminations.map(\.value) == [.forceQuit])
        #expect(script.terminations.map(\.time) == [.seconds(6)])
    }

    @Test("B3.3: OSProfile.willTerminateOnJetsam: a running background app gets willTerminate only when it says so",
          arguments: [true, false])
    func willTerminateInBackground(willTerminate: Bool) {
        var profile = OSProfile.ios17
        profile.willTerminateOnJetsam = willTerminate
        profile.memoryWarningBeforeJetsamProbability = 0
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(5)) { $0.begin() }
        script.at(.seconds(20)) { $0.memoryPressureKill() }
        script.run(until: .seconds(30))
        #expect(script.lifecycle.last == (willTerminate ? .willTerminate : .didEnterBackground))
        #expect(script.terminations.map(\.time) == [.seconds(20)])
    }

    @Test("B3.4: jetsam kills a suspended or background app; the memoryPressureKill weight drives it")
    func jetsam() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(20)) { $0.perform(.memoryPressureKill) }
        script.run(until: .seconds(30))
        #expect(script.terminations.map(\.value) == [.memoryPressure])
        #expect(!TerminationReason.memoryPressure.isPreventable)
        #expect(DriverProbe.isDrivenByWeight(.memoryPressureKill))
    }

    // MARK: B4

    @Test("B4.1: a terminated app is launched into the background to run a task")
    func backgroundRelaunch() {
        let script = ScriptedDevice.withTasks()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(ScriptedDevice.refresh) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.memoryPressureKill() }
        script.at(.seconds(30)) { $0.launchEligibleTask() }
        script.run(until: .seconds(60))
        #expect(script.events { if case .processLaunched(let p, let bg) = $0 { "\(p) \(bg)" } else { nil } }
            .map(\.value) == ["1 false", "2 true"])
        #expect(script.bgLaunches.map(\.time) == [.seconds(30)])
        #expect(script.states.suffix(2) == [.background, .suspended])
    }

    @Test("B4.2: OSProfile.forceQuitBlocksBackgroundLaunch: after a force-quit no task launches the app",
          arguments: [true, false])
    func forceQuitBlocks(blocks: Bool) {
        var profile = OSProfile.ios17
        profile.forceQuitBlocksBackgroundLaunch = blocks
        let script = ScriptedDevice.withTasks(profile)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(ScriptedDevice.refresh) }
        script.at(.seconds(2)) { $0.interrupt(appSwitcher: true) }
        script.at(.seconds(3)) { $0.forceQuit() }
        script.at(.seconds(30)) { $0.launchEligibleTask() }
        script.run(until: .seconds(60))
        #expect(script.bgLaunches.count == (blocks ? 0 : 1))
    }
}
