import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The device's remaining rules (issue 19 part B): the launch watchdog (A10.3), batch launches of
/// several BGTasks (C4.3), an app update dropping pending requests (C3.7), and Low Power Mode
/// holding back refresh and processing.
@Suite struct DeviceRuleTests {
    typealias S = ScriptedDevice

    @Test("A10.3: a launch that blocks the main thread past the 20 s limit is killed by the launch watchdog")
    func launchWatchdog() {
        for (seconds, killed) in [(25, true), (15, false)] {
            let hooks = ScriptedHooks()
            hooks.didFinishLaunching = { $0.application.performBlockingWork(for: .seconds(Int64(seconds))) }
            let script = ScriptedDevice(hooks: hooks)
            script.at(.zero) { $0.launch() }
            script.run(until: .seconds(60))
            if killed {
                #expect(script.terminations.first?.value.exceptionCode == "0x8badf00d")
                #expect(script.terminations.first?.value.description.contains("A10.3") == true)
                #expect(script.terminations.first?.time == .seconds(20) + .microseconds(1))  // just past the limit
            } else {
                #expect(script.terminations.isEmpty)
            }
        }
    }

    @Test("A10.3: the launch limit is a profile parameter")
    func launchLimitIsAParameter() {
        var profile = OSProfile.ios17
        profile.launchWatchdogLimit = .seconds(5)  // the archived guide's figure
        let hooks = ScriptedHooks()
        hooks.didFinishLaunching = { $0.application.performBlockingWork(for: .seconds(8)) }
        let script = ScriptedDevice(profile: profile, hooks: hooks)
        script.at(.zero) { $0.launch() }
        script.run(until: .seconds(30))
        #expect(script.terminations.first?.time == .seconds(5) + .microseconds(1))
    }

    @Test("C4.3: with batchLaunchProbability 1 several due tasks launch in one batch; with 0 one at a time")
    func batchLaunch() {
        for batch in [1.0, 0.0] {
            var profile = OSProfile.ios17
            profile.batchLaunchProbability = batch
            let script = S.withTasks(profile, behaviour: .completeAfter(.seconds(5)))
            script.at(.zero) { $0.launch() }
            script.at(.seconds(1)) { script in
                script.submit(S.refresh)
                script.submit(S.processing, S.processingKind)
            }
            script.at(.seconds(10)) { $0.home() }
            script.at(.seconds(20)) { $0.launchEligibleTask() }
            script.run(until: .seconds(21))
            #expect(script.bgLaunches.map(\.time) == (batch == 1 ? [.seconds(20), .seconds(20)] : [.seconds(20)]))
        }
    }

    @Test("C3.7: an app update ends the process with no callback and drops the pending requests")
    func appUpdateDropsRequests() {
        let script = S.withTasks()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.perform(.appUpdate) }
        script.run(until: .seconds(30))
        #expect(script.terminations.map(\.value) == [.appUpdate])
        #expect(!script.lifecycle.contains(.willTerminate))
        #expect(script.pendingIdentifiers.isEmpty)
    }

    @Test("C3.7: with appUpdateDropsPendingRequestsProbability 0 the requests survive the update")
    func appUpdateKeepsRequests() {
        var profile = OSProfile.ios17
        profile.appUpdateDropsPendingRequestsProbability = 0
        let script = S.withTasks(profile)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.perform(.appUpdate) }
        script.run(until: .seconds(30))
        #expect(script.pendingIdentifiers == [S.refresh])
    }

    @Test("Low Power Mode holds back refresh and processing launches until it is turned off")
    func lowPowerMode() {
        let script = S.withTasks()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh) }
        script.at(.seconds(5)) { $0.perform(.lowPowerModeOn) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { #expect(!$0.device.taskScheduler.hasEligibleRequest()) }
        script.at(.seconds(21)) { $0.launchEligibleTask() }
        script.at(.seconds(30)) { $0.perform(.lowPowerModeOff) }
        script.at(.seconds(31)) { $0.launchEligibleTask() }
        script.run(until: .seconds(40))
        #expect(script.bgLaunches.map(\.time) == [.seconds(31)])
    }

    /// A script whose `didEnterBackground` blocks the main thread for `blockSeconds`, then begins
    /// a task; returns the script and the begun ids.
    static func lateBegin(blockSeconds: Double, chance: Double) -> (ScriptedDevice, Box<[BackgroundTaskIdentifier]>) {
        var profile = OSProfile.ios17
        profile.lateBeginLosesRaceProbability = chance
        let hooks = ScriptedHooks()
        let ids = Box<[BackgroundTaskIdentifier]>([])
        let kept = Box<[LifecycleObservation]>([])
        let script = ScriptedDevice(profile: profile, hooks: hooks)
        hooks.didFinishLaunching = { [unowned script] context in
            kept.value.append(context.application.addLifecycleObserver { event in
                guard event == .didEnterBackground else { return }
                context.application.performBlockingWork(for: .milliseconds(Int64(blockSeconds * 1_000)))
                ids.value.append(script.begin("flush"))
            })
        }
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.home() }
        script.run(until: .seconds(60))
        return (script, ids)
    }

    @Test("A3.4: a begin at the very end of didEnterBackground can lose the race: its handler is called at once")
    func lateBeginLosesTheRace() throws {
        let (lost, lostIDs) = Self.lateBegin(blockSeconds: 4.5, chance: 1)
        let id = try #require(lostIDs.value.first)
        #expect(lost.handlerCalls(id) == [.milliseconds(5_500)])  // right after the callback returned
        let (won, wonIDs) = Self.lateBegin(blockSeconds: 4.5, chance: 0)
        #expect(won.handlerCalls(try #require(wonIDs.value.first)).count == 1)  // only at the budget's expiry
        #expect(won.handlerCalls(try #require(wonIDs.value.first)).first! > .seconds(20))
        let (early, earlyIDs) = Self.lateBegin(blockSeconds: 1, chance: 1)  // not at the end: always wins
        #expect(early.handlerCalls(try #require(earlyIDs.value.first)).first! > .seconds(20))
    }
}
