import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Rules A7.2, A7.3, A8.5 and A9.1: what MetricKit counts, the debugger's effect on watchdogs,
/// `backgroundTimeRemaining` as an estimate, and `performExpiringActivity`. The app launches at
/// 0 s and goes home at 10 s (iOS 17: a 30 s budget, handlers at 36 s, the deadline at 40 s).
@Suite struct DebuggerAndMetricsRuleTests {
    typealias S = ScriptedDevice

    /// A device whose app leaks a task begun at 5 s (its handler does not end it).
    static func leakingTask(_ profile: OSProfile = .ios17) -> ScriptedDevice {
        let script = S.backgrounded(profile)
        script.at(.seconds(5)) { $0.begin("leaked", onExpiry: .nothing) }
        return script
    }

    @Test("A7.2: a task still held at the deadline counts as a background-task assertion timeout, other watchdogs apart")
    func metricKitCountsAssertionTimeouts() {
        let script = Self.leakingTask()
        script.run(until: .seconds(60))
        let background = script.device.exitMetrics.background
        #expect(background.backgroundTaskAssertionTimeout == 1)
        #expect(background.total == 1)
        #expect(script.device.exitMetrics.foreground.total == 0)

        // A foreground watchdog kill (launch held the main thread past 20 s, A10.3) is an app
        // watchdog exit in the foreground data.
        let hooks = ScriptedHooks()
        hooks.didFinishLaunching = { $0.application.performBlockingWork(for: .seconds(25)) }
        let slowLaunch = ScriptedDevice(hooks: hooks)
        slowLaunch.at(.zero) { $0.launch() }
        slowLaunch.run(until: .seconds(60))
        #expect(slowLaunch.device.exitMetrics.foreground.appWatchdog == 1)
        #expect(slowLaunch.device.exitMetrics.background.total == 0)
    }

    @Test("A7.2: jetsam, a force-quit and an exception land in their own MetricKit buckets")
    func metricKitBuckets() {
        let script = ScriptedDevice(permitted: [S.refresh])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.memoryPressureKill() }
        script.at(.seconds(30)) { $0.launch() }
        script.at(.seconds(35)) { $0.forceQuit() }
        script.at(.seconds(40)) { $0.launch() }
        script.at(.seconds(45)) { $0.register(S.refresh) }  // C1.4: registered after launch
        script.run(until: .seconds(60))
        var expected = AppExitMetrics()
        expected.background.memoryPressure = 1
        expected.foreground.normalAppExit = 1
        expected.foreground.abnormal = 1
        #expect(script.device.exitMetrics == expected)
    }

    @Test("A7.3: with the debugger attached the leaked task is not killed at the deadline; without it, it is")
    func debuggerSuppressesWatchdog() {
        var profile = OSProfile.ios17
        profile.debuggerAttached = true
        let debugged = Self.leakingTask(profile)
        debugged.run(until: .seconds(60))
        #expect(debugged.terminations.isEmpty)
        #expect(debugged.names.contains("process.watchdogSuppressed"))
        #expect(debugged.device.exitMetrics.background.total == 0)
        #expect(debugged.app.isAlive)

        let device = Self.leakingTask()
        device.run(until: .seconds(60))
        #expect(device.terminations.map(\.time) == [.seconds(40)])
    }

    @Test("A7.3: the debugger hides a planted leak from no-watchdog-kill (the trap of testing from Xcode)")
    func debuggerHidesPlantedLeak() throws {
        let scenario = try ScenarioLoader.load(
            file: ScenarioExpectationTests.directory + "/download-manager-p1-overwritten-task-id-ios17.json")
        var spec = scenario.runSpec
        spec.exploration = .random  // pinned: the seeds below mean these runs under `random`
        func watchdogKills(_ spec: RunSpec) -> Int {
            (0..<8).filter { index in
                let seed = scenario.campaign.seed.derive(index: UInt64(index))
                let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
                return outcome.violations.contains { $0.invariant == "no-watchdog-kill" }
            }.count
        }
        #expect(watchdogKills(spec) > 0, "on a device the leak is killed (A7.1)")
        spec.profile.debuggerAttached = true
        #expect(watchdogKills(spec) == 0, "under the debugger the same runs are never killed")
    }

    @Test("A8.5: backgroundTimeRemaining strays from the time left by up to the profile's error, and is exact by default")
    func remainingIsAnEstimate() {
        func reads(error: VirtualDuration) -> [Double] {
            var profile = OSProfile.ios17
            profile.backgroundTimeRemainingError = error
            let script = ScriptedDevice(profile: profile, choices: ChoiceSource(seed: Seed(0x85)))
            script.at(.zero) { $0.launch() }
            script.at(.seconds(10)) { $0.home() }
            script.at(.seconds(10)) { $0.begin("work") }
            let values = Box<[Double]>([])
            for second in 11...20 {
                script.at(.seconds(Int64(second))) { values.value.append($0.app.backgroundTimeRemaining) }
            }
            script.run(until: .seconds(21))
            return values.value
        }
        let exact = reads(error: .zero)
        let expected: [Double] = (11...20).map { (second: Int) -> Double in Double(40 - second) }
        #expect(exact == expected)
        let estimated = reads(error: .seconds(3))
        let offsets = zip(estimated, exact).map { $0 - $1 }
        #expect(offsets.allSatisfy { abs($0) <= 3 })
        #expect(offsets.contains { $0 != 0 }, "an error of 3 s moves some reads")
        #expect(Set(offsets).count > 1, "the offset changes from read to read")
    }

    @Test("A9.1: performExpiringActivity runs the block off the main queue with expired false, holding an assertion until it returns")
    func expiringActivityRuns() {
        let script = S.backgrounded()
        let calls = Box<[(Bool, Bool)]>([])
        script.at(.seconds(10)) { script in  // right after home, before the app is suspended
            let app = script.app
            app.performExpiringActivity(withReason: "save-draft") { expired in
                calls.value.append((expired, app.isMainThread))
            }
        }
        script.run(until: .seconds(60))
        #expect(calls.value.map(\.0) == [false])
        #expect(calls.value.map(\.1) == [false])
        #expect(script.names(matching: "task.begin", "task.end") == ["task.begin", "task.end"])
        #expect(script.terminations.isEmpty)
    }

    @Test("A9.1: when the time is already spent the block is called once, with expired true")
    func expiringActivityAfterTheBudget() {
        let script = S.backgrounded()
        script.at(.seconds(10)) { $0.begin("leaked", onExpiry: .nothing) }  // keeps the app running to 40 s
        let calls = Box<[Bool]>([])
        script.at(.seconds(38)) { script in  // after the handlers ran at 36 s
            script.app.performExpiringActivity(withReason: "late") { expired in calls.value.append(expired) }
        }
        script.run(until: .seconds(60))
        #expect(calls.value == [true])
        #expect(script.terminations.map(\.time) == [.seconds(40)], "the leaked task's kill (A7.1)")
    }

    @Test("A9.1: a block that returns while the expiry comes on main: the assertion is released once, whatever the interleaving")
    func expiringActivityReturnRacesExpiry() {
        var released = 0
        for seed in UInt64(0)..<200 {
            let script = ScriptedDevice(environment: HostSeamsSimulationTests.preempting, choices: ChoiceSource(seed: Seed(seed)))
            script.at(.zero) { $0.launch() }
            script.at(.seconds(10)) { script in
                script.home()
                let app = script.app
                app.performExpiringActivity(withReason: "save") { expired in
                    if !expired { app.performBlockingWork(for: .seconds(2)) }  // returns at 12 s
                }
            }
            script.at(.seconds(12)) { $0.earlyExpiry() }
            script.run(until: .seconds(60))
            #expect(!script.console.contains { $0.hasPrefix("Can't end BackgroundTask") }, "seed: \(seed): \(script.console)")
            released += script.names(matching: "task.end").count
        }
        #expect(released == 200)
    }

    @Test("A9.1: when the begin is refused the block is told it expired, and never runs with false")
    func expiringActivityRefused() {
        var environment = EnvironmentConfig.scripted
        environment.faults.beginFailureProbability = 1
        let script = S.backgrounded(environment: environment)
        let calls = Box<[Bool]>([])
        script.at(.seconds(10)) { script in
            script.app.performExpiringActivity(withReason: "refused") { expired in calls.value.append(expired) }
        }
        script.run(until: .seconds(60))
        #expect(calls.value == [true])
    }
}
