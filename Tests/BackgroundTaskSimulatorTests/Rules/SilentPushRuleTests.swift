import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Silent pushes (D2, issue 19): a content-available push wakes a suspended app or launches a
/// not-running one in the background; the app has 30 s to call the fetch completion handler,
/// exactly once, or it is terminated; pushes are rate limited; a force-quit app is not launched.
@Suite struct SilentPushRuleTests {
    /// A scripted app with the remote-notification mode whose push handler keeps each completion
    /// handler in `completions` (calling it is up to the test).
    static func device(profile: OSProfile = .ios17, completions: Box<[FetchCompletionHandler]>) -> ScriptedDevice {
        let hooks = ScriptedHooks()
        hooks.didFinishLaunching = { context in
            context.onRemoteNotification { _, completionHandler in completions.value.append(completionHandler) }
        }
        return ScriptedDevice(profile: profile, modes: ["remote-notification"], hooks: hooks)
    }

    static func pushEvents(_ script: ScriptedDevice) -> [String] {
        script.log.compactMap { entry in
            switch entry.event {
            case .pushReceived(let push, let outcome): "receive \(push) \(outcome)"
            case .pushCompleted(let push, let result, let repeated): "complete \(push) \(result)\(repeated ? " repeated" : "")"
            case .pushExpired(let push, let terminates): "expire \(push)\(terminates ? " terminates" : "")"
            default: nil
            }
        }
    }

    @Test("D2: a silent push wakes a suspended app in the background and holds it awake until its completion handler is called")
    func wakesSuspendedApp() {
        let completions = Box<[FetchCompletionHandler]>([])
        let script = Self.device(completions: completions)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(5)) { $0.home() }  // suspended at 6 s
        script.at(.seconds(20)) { $0.perform(.silentPush) }
        script.at(.seconds(40)) { _ in completions.value.first?(.newData) }
        script.run(until: .seconds(60))
        #expect(Self.pushEvents(script) == ["receive 1 delivered", "complete 1 newData"])
        let states = script.stateTimes.filter { $0.time >= .seconds(20) }
        #expect(states.map(\.value) == [.background, .suspended])
        #expect(states.map(\.time) == [.seconds(20), .seconds(41)])  // held until 40 s, then the 1 s delay
        #expect(script.terminations.isEmpty)
    }

    @Test("D2: a silent push launches a not-running app into the background; its handler runs after didFinishLaunching")
    func launchesNotRunningApp() {
        let completions = Box<[FetchCompletionHandler]>([])
        let script = Self.device(completions: completions)
        script.at(.seconds(1)) { $0.perform(.silentPush) }
        script.at(.seconds(3)) { _ in completions.value.first?(.noData) }
        script.run(until: .seconds(10))
        #expect(script.names(matching: "process.launch", "lifecycle.didFinishLaunching", "push.").prefix(3)
            == ["push.receive", "process.launch", "lifecycle.didFinishLaunching"])
        #expect(completions.value.count == 1)
        #expect(Self.pushEvents(script) == ["receive 1 delivered", "complete 1 noData"])
        #expect(script.states.last == .suspended)
    }

    @Test("D2: a completion handler not called within 30 s expires the push and the background app is terminated")
    func lateCompletionTerminates() {
        let completions = Box<[FetchCompletionHandler]>([])
        let script = Self.device(completions: completions)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(5)) { $0.home() }
        script.at(.seconds(20)) { $0.perform(.silentPush) }
        script.run(until: .seconds(120))
        #expect(Self.pushEvents(script) == ["receive 1 delivered", "expire 1 terminates"])
        #expect(script.terminations.map(\.time) == [.seconds(50)])
        if case .watchdog(let detail)? = script.terminations.first?.value {
            #expect(detail.contains("(D2)"))
        } else {
            Issue.record("expected a watchdog termination, got \(script.terminations)")
        }
    }

    @Test("D2: in the foreground an expired push does not kill the app; a late or second call is recorded")
    func foregroundExpiryAndRepeatedCall() {
        let completions = Box<[FetchCompletionHandler]>([])
        let script = Self.device(completions: completions)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.perform(.silentPush) }
        script.at(.seconds(40)) { _ in completions.value.first?(.failed) }
        script.run(until: .seconds(60))
        #expect(Self.pushEvents(script) == ["receive 1 delivered", "expire 1", "complete 1 failed"])
        #expect(script.terminations.isEmpty)

        let twice = Box<[FetchCompletionHandler]>([])
        let second = Self.device(completions: twice)
        second.at(.zero) { $0.launch() }
        second.at(.seconds(1)) { $0.perform(.silentPush) }
        second.at(.seconds(2)) { _ in twice.value.first?(.failed); twice.value.first?(.noData) }
        second.run(until: .seconds(10))
        #expect(Self.pushEvents(second) == ["receive 1 delivered", "complete 1 failed", "complete 1 noData repeated"])
    }

    @Test("D2: a push sooner than silentPushMinimumInterval after the last one is throttled")
    func rateLimited() {
        let completions = Box<[FetchCompletionHandler]>([])
        var profile = OSProfile.ios17
        profile.silentPushMinimumInterval = .seconds(100)
        let script = Self.device(profile: profile, completions: completions)
        script.at(.zero) { $0.launch() }
        for time in [1, 50, 101, 150] as [Int64] { script.at(.seconds(time)) { $0.perform(.silentPush) } }
        script.at(.seconds(200)) { _ in for completion in completions.value { completion(.noData) } }
        script.run(until: .seconds(210))
        #expect(Self.pushEvents(script).filter { $0.hasPrefix("receive") }
            == ["receive 1 delivered", "receive 2 throttled", "receive 3 delivered", "receive 4 throttled"])
    }

    @Test("D2: a force-quit app is not launched by a silent push until the user opens it again")
    func forceQuitBlocksLaunch() {
        let completions = Box<[FetchCompletionHandler]>([])
        let script = Self.device(completions: completions)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.forceQuit() }
        script.at(.seconds(10)) { $0.perform(.silentPush) }
        script.run(until: .seconds(20))
        #expect(Self.pushEvents(script) == ["receive 1 forceQuitBlocked"])
        #expect(script.device.processCount == 1)
    }

    @Test("D2: only apps with the remote-notification mode on profiles that have silent pushes can get one")
    func pushesNeedModeAndProfile() {
        let completions = Box<[FetchCompletionHandler]>([])
        let pushing = Self.device(completions: completions)
        #expect(EnvironmentDriver(device: pushing.device, horizon: .zero).possibleActions().contains(.silentPush))
        let old = Self.device(profile: .ios6, completions: completions)
        #expect(!EnvironmentDriver(device: old.device, horizon: .zero).possibleActions().contains(.silentPush))
        let plain = ScriptedDevice()
        #expect(!EnvironmentDriver(device: plain.device, horizon: .zero).possibleActions().contains(.silentPush))
    }

    @Test("push-completion-called-once flags a second call and an expiry, and nothing for a single call")
    func checkerVerdicts() {
        let checker = PushCompletionCalledOnce()
        let facts = RunFacts()
        #expect(checker.observe(.pushCompleted(push: 1, result: "newData", repeated: false), at: .seconds(1), facts: facts) == nil)
        let twice = checker.observe(.pushCompleted(push: 1, result: "noData", repeated: true), at: .seconds(2), facts: facts)
        #expect(twice?.contains("called a second time") == true)
        let expired = checker.observe(.pushExpired(push: 2, terminates: true), at: .seconds(31), facts: facts)
        #expect(expired?.contains("not called within its runtime") == true)
    }
}
