import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Rules C4-C5: BGTaskScheduler tasks at run time (runtimes, expiry, completion) and the debugger
/// commands, in ``TaskSchedulerRuleTests``' suite and timeline (a refresh launched at 20 s expires
/// at 46 s and is killed at 50 s).
extension TaskSchedulerRuleTests {
    // MARK: C4

    @Test("C4.1: OSProfile.refreshRuntime: a refresh task expires lead seconds before it and is killed at it",
          arguments: [(Int64(30), VirtualTime.seconds(46), VirtualTime.seconds(50)), (10, .seconds(26), .seconds(30))])
    func refreshRuntime(seconds: Int64, expiry: VirtualTime, kill: VirtualTime) {
        var profile = OSProfile.ios17
        profile.refreshRuntime = .seconds(seconds)
        let script = Self.launched(profile)
        script.run(until: .seconds(100))
        #expect(script.bgExpiries.map(\.time) == [expiry])
        #expect(script.terminations.map(\.time) == [kill])
    }

    @Test("C4.2: OSProfile.processingRuntime: minutes while idle; using the device expires processing, not refresh",
          arguments: [Int64(300), 600])
    func processingRuntime(seconds: Int64) {
        var profile = OSProfile.ios17
        profile.processingRuntime = .seconds(seconds)
        let idle = Self.launched(profile, kind: S.processingKind)
        idle.run(until: .seconds(1_000))
        #expect(idle.bgExpiries.map(\.time) == [.seconds(20 + seconds - 4)])

        for kind in [S.processingKind, .appRefresh] {
            let used = Self.launched(profile, kind: kind, behaviour: .completeAfter(.seconds(200)))
            used.at(.seconds(25)) { $0.open() }
            used.run(until: .seconds(30))
            #expect(used.bgExpiries.map(\.time) == (kind == .appRefresh ? [] : [.seconds(25)]))
        }
    }

    @Test("C4.4: OSProfile.taskExpiryLead: the handler runs once, that long before the end, and is cleared",
          arguments: [(Int64(4), VirtualTime.seconds(46)), (10, .seconds(40))])
    func taskExpiryLead(lead: Int64, expiry: VirtualTime) {
        var profile = OSProfile.ios17
        profile.taskExpiryLead = .seconds(lead)
        let script = Self.launched(profile)
        let calls = Box<[VirtualTime]>([])
        script.at(.seconds(21)) { script in
            let task = script.launchedTasks.value[0]
            task.expirationHandler = { calls.value.append(script.now) }
        }
        script.at(expiry + .milliseconds(1)) { script in
            #expect(script.launchedTasks.value[0].expirationHandler == nil)
            script.scheduler.simulateExpiration(forTaskWithIdentifier: S.refresh)
        }
        script.run(until: .seconds(100))
        #expect(calls.value == [expiry])
        #expect(script.terminations.map(\.time) == [.seconds(50)])
    }

    @Test("C4.5: with no expiration handler, expiry completes the task unsuccessfully")
    func noHandlerCompletesUnsuccessfully() {
        let script = Self.launched(behaviour: .noHandler)
        script.run(until: .seconds(100))
        #expect(script.bgExpiries.map(\.value) == [false])
        #expect(script.bgCompletions.map(\.time) == [.seconds(46)])
        #expect(script.bgCompletions.map(\.value.success) == [false])
        #expect(script.terminations.isEmpty)
        #expect(script.suspendedAt == .seconds(47))
    }

    @Test("C4.6: a task not completed in time kills the app; completing suspends it right after")
    func completeOrDie() {
        let leaked = Self.launched()
        leaked.run(until: .seconds(100))
        #expect(leaked.terminations.map(\.time) == [.seconds(50)])
        #expect(leaked.terminations.first?.value.exceptionCode == "0x8badf00d")
        let done = Self.launched(behaviour: .completeAfter(.seconds(5)))
        done.run(until: .seconds(100))
        #expect(done.terminations.isEmpty)
        #expect(done.suspendedAt == .seconds(26))
    }

    @Test("C4.7: a second setTaskCompleted is a no-op")
    func completeTwice() {
        let script = Self.launched()
        script.at(.seconds(22)) { script in
            script.launchedTasks.value[0].setTaskCompleted(success: true)
            script.launchedTasks.value[0].setTaskCompleted(success: false)
        }
        script.run(until: .seconds(100))
        #expect(script.bgCompletions.map(\.value.repeated) == [false, true])
        #expect(script.bgCompletions.first?.value.success == true)
        #expect(script.terminations.isEmpty)
    }

    @Test("C4.9: BGTask.identifier is the registered identifier")
    func taskIdentifier() {
        let script = Self.launched(kind: S.processingKind, behaviour: .completeAfter(.seconds(1)))
        script.run(until: .seconds(30))
        #expect(script.launchedTasks.value.map(\.identifier) == [S.processing])
    }

    // MARK: C5

    @Test("C5.1: _simulateLaunchForTaskWithIdentifier launches a pending request at once, due or not")
    func simulateLaunch() {
        let script = S.withTasks(behaviour: .completeAfter(.seconds(1)))
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh, earliest: $0.scheduler.now.addingTimeInterval(3_600)) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.scheduler.simulateLaunch(forTaskWithIdentifier: S.refresh) }
        script.run(until: .seconds(30))
        #expect(script.bgLaunches.map(\.time) == [.seconds(20)])
    }

    @Test("C5.2: _simulateExpirationForTaskWithIdentifier calls the running task's expiration handler")
    func simulateExpiration() {
        let script = Self.launched(behaviour: .completeAfter(.seconds(20)))
        script.at(.seconds(25)) { $0.scheduler.simulateExpiration(forTaskWithIdentifier: S.refresh) }
        script.run(until: .seconds(60))
        #expect(script.bgExpiries.map(\.time) == [.seconds(25)])
        #expect(script.bgCompletions.map(\.value.success) == [false])
        #expect(script.terminations.isEmpty)
    }

    @Test("C5.2: a simulated expiry moves the kill forward: a task expired early and never completed dies lead seconds later")
    func simulatedExpiryKill() {
        let script = Self.launched(kind: S.processingKind)
        script.at(.seconds(25)) { $0.scheduler.simulateExpiration(forTaskWithIdentifier: S.processing) }
        script.run(until: .seconds(400))
        #expect(script.terminations.map(\.time) == [.seconds(29)])
    }

    @Test("C5.4: simulating a launch with nothing pending logs 'No task request … has been scheduled'")
    func simulateLaunchNothingPending() {
        let script = S.withTasks()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.scheduler.simulateLaunch(forTaskWithIdentifier: S.refresh) }
        script.run(until: .seconds(2))
        #expect(script.console == ["No task request with identifier <\(S.refresh)> has been scheduled"])
        #expect(script.bgLaunches.isEmpty)
    }
}
