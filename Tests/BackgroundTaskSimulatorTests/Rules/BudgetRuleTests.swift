import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Rules A4-A10: the app-wide budget, ending tasks, the 30 s warning, the watchdog kill,
/// `backgroundTimeRemaining` and `didEnterBackground`. The app goes home at 10 s unless a test
/// says otherwise.
@Suite struct BudgetRuleTests {
    /// The deadline of the first budget when a task is open from 5 s and the app goes home at 10 s.
    static func firstDeadline(_ profile: OSProfile, backgroundLaunch: Bool = false) -> VirtualTime? {
        let script = ScriptedDevice(profile: profile)
        if backgroundLaunch {
            script.at(.zero) { $0.launch(inBackground: true) }
            script.at(.milliseconds(1)) { $0.begin() }
        } else {
            script.at(.zero) { $0.launch() }
            script.at(.seconds(5)) { $0.begin() }
            script.at(.seconds(10)) { $0.home() }
        }
        script.run(until: .seconds(700))
        return script.deadlines.first
    }

    // MARK: A4

    @Test("A4.1: iOS 6 gives about 600 s in the background")
    func ios6Budget() {
        #expect(Self.firstDeadline(.ios6) == .seconds(610))
    }

    @Test("A4.2: iOS 12 gives 180 s from the foreground and 30 s after a background launch")
    func ios12Budget() {
        #expect(Self.firstDeadline(.ios12) == .seconds(190))
        #expect(Self.firstDeadline(.ios12, backgroundLaunch: true) == .seconds(30))
    }

    @Test("A4.3: iOS 13 and later give about 30 s", arguments: [OSProfile.ios17, .ios26])
    func modernBudget(profile: OSProfile) {
        #expect(Self.firstDeadline(profile) == .seconds(40))
        #expect(Self.firstDeadline(profile, backgroundLaunch: true) == .seconds(30))
    }

    @Test("A4.4: every budget is a profile value a scenario can change")
    func budgetIsAParameter() {
        var profile = OSProfile.ios17
        profile.budget = .seconds(45)
        profile.backgroundLaunchBudget = .seconds(12)
        #expect(Self.firstDeadline(profile) == .seconds(55))
        #expect(Self.firstDeadline(profile, backgroundLaunch: true) == .seconds(12))
    }

    @Test("A4.5: the budget belongs to the app: a second task adds no time and shares the callout")
    func budgetIsAppWide() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(5)) { $0.begin("first") }
        script.at(.seconds(25)) { $0.begin("second") }
        script.run(until: .seconds(60))
        #expect(script.deadlines == [.seconds(40)])
        let callouts = script.events { if case .expirationCallout(let ids, _) = $0 { ids } else { nil } }
        #expect(callouts.map(\.time) == [.seconds(36)])
        #expect(callouts.map(\.value) == [[1, 2]])
    }

    @Test("A4.6: a task begun in the foreground stays dormant until the app enters the background")
    func foregroundTaskDormant() {
        let script = ScriptedDevice.backgrounded(homeAt: .seconds(200))
        let remaining = Box<Double>(0)
        script.at(.seconds(1)) { $0.begin() }
        script.at(.seconds(150)) { remaining.value = $0.app.backgroundTimeRemaining }
        script.run(until: .seconds(300))
        #expect(remaining.value == .greatestFiniteMagnitude)
        #expect(script.deadlines == [.seconds(230)])
        #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 1)) == [.seconds(226)])
    }

    @Test("A4.7: OSProfile.budgetResetsOnForeground decides whether a return to the foreground restores the budget",
          arguments: [(true, VirtualTime.seconds(60)), (false, .seconds(50))])
    func budgetReset(resets: Bool, secondDeadline: VirtualTime) {
        var profile = OSProfile.ios17
        profile.budgetResetsOnForeground = resets
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(5)) { $0.begin() }
        script.at(.seconds(20)) { $0.open() }
        script.at(.seconds(30)) { $0.home() }
        script.run(until: .seconds(120))
        #expect(script.deadlines == [.seconds(40), secondDeadline])
    }

    // MARK: A5

    @Test("A5.1: a task that is never ended gets the app killed; an ended one does not")
    func endIsRequired() {
        for ends in [true, false] {
            let script = ScriptedDevice.backgrounded()
            let id = Box(BackgroundTaskIdentifier.invalid)
            script.at(.seconds(5)) { id.value = $0.begin(onExpiry: .nothing) }
            if ends { script.at(.seconds(20)) { $0.end(id.value) } }
            script.run(until: .seconds(60))
            #expect(script.terminations.count == (ends ? 0 : 1))
        }
    }

    @Test("A5.2: ending an unknown id logs OSProfile.consoleWording's message and nothing else",
          arguments: [
              (OSProfile.ConsoleWording.modern, 3, "Can't end BackgroundTask: no background task exists with identifier 3 (0x3), "
                  + "or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug."),
              (.legacy, 108, "Can't endBackgroundTask: no background task exists with identifier 6c, "
                  + "or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug."),
          ])
    func unknownEndWording(wording: OSProfile.ConsoleWording, id: Int, message: String) {
        var profile = OSProfile.ios17
        profile.consoleWording = wording
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(5)) { $0.end(BackgroundTaskIdentifier(rawValue: id)) }
        script.run(until: .seconds(60))
        #expect(script.console == [message])
        #expect(script.terminations.isEmpty)
        #expect(OSProfile.ios17.consoleWording == .modern && OSProfile.ios12.consoleWording == .legacy)
    }

    @Test("A5.3: OSProfile.endingInvalidLogs decides whether ending .invalid logs", arguments: [true, false])
    func endingInvalid(logs: Bool) {
        var profile = OSProfile.ios17
        profile.endingInvalidLogs = logs
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(5)) { $0.end(.invalid) }
        script.run(until: .seconds(6))
        #expect(script.console.count == (logs ? 1 : 0))
        #expect(script.times { $0 == .endedUnknownTask(id: 0) } == [.seconds(5)])
    }

    @Test("A5.4: once ended, the id can be set to .invalid: later ends of .invalid harm nothing")
    func invalidAfterEnd() {
        var profile = OSProfile.ios17
        profile.endingInvalidLogs = false
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(5)) { script in
            let kept = script.begin("kept")
            var id = script.begin("wrapped")
            script.end(id)
            id = .invalid
            script.end(id)
            script.end(id)
            #expect(script.app.core.openTasks.map(\.id) == [kept.rawValue])
        }
        script.run(until: .seconds(60))
        #expect(script.console.filter { $0.hasPrefix("Can't") }.isEmpty)
        #expect(script.terminations.isEmpty)
    }

    // MARK: A6

    @Test("A6.1: OSProfile.longHeldTaskWarning: a task held 30 s logs the warning (iOS 17); iOS 12 has none")
    func longHeldWarning() {
        for profile in [OSProfile.ios17, .ios12] {
            let script = ScriptedDevice.backgrounded(profile)
            script.at(.seconds(1)) { $0.begin("sync") }
            script.at(.seconds(35)) { $0.end(BackgroundTaskIdentifier(rawValue: 1)) }
            script.run(until: .seconds(60))
            let warnings = script.events { if case .console(let l) = $0, l.contains("created over 30") { l } else { nil } }
            if profile.longHeldTaskWarning == nil {
                #expect(warnings.isEmpty)
            } else {
                #expect(warnings.map(\.time) == [.seconds(31)])
                #expect(warnings.first?.value == "[BackgroundTask] Background Task 1 (\"sync\"), was created over 30 "
                    + "seconds ago. In applications running in the background, this creates a risk of termination. "
                    + "Remember to call UIApplication.endBackgroundTask(_:) for your task in a timely manner to avoid this.")
            }
        }
    }

    @Test("A6.2: OSProfile.longHeldTaskWarningInForeground: in the foreground only when set; once per task",
          arguments: [(false, VirtualTime.seconds(40)), (true, .seconds(30))])
    func longHeldWarningInForeground(inForeground: Bool, warnedAt: VirtualTime) {
        var profile = OSProfile.ios17
        profile.longHeldTaskWarningInForeground = inForeground
        let script = ScriptedDevice.backgrounded(profile, homeAt: .seconds(40))
        script.at(.zero) { $0.begin() }
        script.run(until: .seconds(90))
        let warnings = script.times { if case .console(let l) = $0 { l.contains("created over 30") } else { false } }
        #expect(warnings == [warnedAt])
    }

    // MARK: A7

    @Test("A7.1: a task open at the deadline: the handlers run first, then the 0x8badf00d kill")
    func watchdogKill() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(5)) { $0.begin("leak", onExpiry: .nothing) }
        script.run(until: .seconds(60))
        #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 1)) == [.seconds(36)])
        #expect(script.terminations.map(\.time) == [.seconds(40)])
        #expect(script.terminations.first?.value.exceptionCode == "0x8badf00d")
        #expect(script.events { if case .terminated(_, let open) = $0 { open } else { nil } }.map(\.value) == [[1]])
        #expect(script.states.last == .notRunning)
    }

    @Test("A7.4: the kill comes at the deadline whatever OSProfile.expiryLead is", arguments: [Int64(4), 10])
    func killAtDeadline(leadSeconds: Int64) {
        var profile = OSProfile.ios17
        profile.expiryLead = .seconds(leadSeconds)
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(5)) { $0.begin(onExpiry: .nothing) }
        script.run(until: .seconds(60))
        #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 1)) == [.seconds(40 - leadSeconds)])
        #expect(script.terminations.map(\.time) == [.seconds(40)])
    }

    // MARK: A8

    @Test("A8.1: backgroundTimeRemaining counts down once the app is in the background with a task")
    func remainingInBackground() {
        let script = ScriptedDevice.backgrounded()
        let seen = Box<[Double]>([])
        script.at(.seconds(5)) { $0.begin(onExpiry: .nothing) }
        script.at(.seconds(15)) { seen.value.append($0.app.backgroundTimeRemaining) }
        script.at(.milliseconds(39_500)) { seen.value.append($0.app.backgroundTimeRemaining) }
        script.run(until: .seconds(60))
        #expect(seen.value == [25, 0.5])
    }

    @Test("A8.2: backgroundTimeRemaining stays suitably large in the foreground, with or without tasks")
    func remainingInForeground() {
        let script = ScriptedDevice.backgrounded(homeAt: .seconds(100))
        let seen = Box<[Double]>([])
        script.at(.seconds(1)) { seen.value.append($0.app.backgroundTimeRemaining) }
        script.at(.seconds(2)) { $0.begin() }
        script.at(.seconds(3)) { seen.value.append($0.app.backgroundTimeRemaining) }
        script.run(until: .seconds(4))
        #expect(seen.value.allSatisfy { $0 > 1e300 })
    }

    @Test("A8.3: the unconstrained value is DBL_MAX")
    func remainingIsDBLMax() {
        let script = ScriptedDevice.backgrounded()
        let seen = Box<Double>(0)
        script.at(.seconds(1)) { seen.value = $0.app.backgroundTimeRemaining }
        script.run(until: .seconds(2))
        #expect(seen.value == 1.7976931348623157e308)
    }

    @Test("A8.4: with no task the app has OSProfile.suspensionDelay left: 1 s by default, 10 s when set",
          arguments: [(Int64(1), VirtualTime.seconds(11)), (10, .seconds(20))])
    func noTaskTimeLeft(delaySeconds: Int64, suspendedAt: VirtualTime) {
        var profile = OSProfile.ios17
        profile.suspensionDelay = .seconds(delaySeconds)
        let script = ScriptedDevice.backgrounded(profile)
        script.run(until: .seconds(60))
        #expect(script.suspendedAt == suspendedAt)
    }

    // MARK: A10

    /// A device whose `didEnterBackground` observer blocks the main thread for `seconds`.
    static func blockingDidEnterBackground(_ profile: OSProfile, seconds: Int64) -> ScriptedDevice {
        let hooks = ScriptedHooks()
        let observation = Box<LifecycleObservation?>(nil)
        hooks.didFinishLaunching = { context in
            let app = context.application
            observation.value = app.addLifecycleObserver { event in
                if event == .didEnterBackground { app.performBlockingWork(for: .seconds(seconds)) }
            }
        }
        return ScriptedDevice.backgrounded(profile, hooks: hooks)
    }

    @Test("A10.1: didEnterBackground running past OSProfile.didEnterBackgroundLimit kills the app",
          arguments: [(Int64(5), Int64(4), false), (5, 6, true), (10, 6, false)])
    func didEnterBackgroundLimit(limit: Int64, blocks: Int64, killed: Bool) {
        var profile = OSProfile.ios17
        profile.didEnterBackgroundLimit = .seconds(limit)
        let script = Self.blockingDidEnterBackground(profile, seconds: blocks)
        script.run(until: .seconds(60))
        // Home at 10 s: killed at the limit while still blocked (just past 10 s + limit).
        let expected: [VirtualTime] = killed ? [VirtualTime.seconds(10 + limit) + VirtualDuration.microseconds(1)] : []
        #expect(script.terminations.map(\.time) == expected)
        if killed { #expect(script.terminations.first?.value.exceptionCode == "0x8badf00d") }
    }

    @Test("A10.4: every watchdog kill reports 0x8badf00d: leaked task, slow handlers, slow didEnterBackground")
    func everyWatchdogIs8badf00d() {
        let leaked = ScriptedDevice.backgrounded()
        leaked.at(.seconds(5)) { $0.begin(onExpiry: .nothing) }
        let slow = ScriptedDevice.backgrounded()
        slow.at(.seconds(5)) { $0.begin(onExpiry: .blockThenEnd(.seconds(5))) }
        let slowEntry = Self.blockingDidEnterBackground(.ios17, seconds: 8)
        for script in [leaked, slow, slowEntry] {
            script.run(until: .seconds(60))
            #expect(script.terminations.map { $0.value.exceptionCode } == ["0x8badf00d"])
        }
    }
}
