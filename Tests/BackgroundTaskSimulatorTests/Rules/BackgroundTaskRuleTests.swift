import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Rules A1-A3 of `reference/ios-background-execution.md`: beginning and ending UIKit background
/// tasks, identifiers, expiration handlers. Every test drives a ``ScriptedDevice``: launched at
/// 0 s, sent home at 10 s, so under iOS 17 the budget runs 10-40 s and the handlers run at 36 s.
@Suite struct BackgroundTaskRuleTests {
    // MARK: A1

    @Test("A1.1: begin only keeps the app from suspending; it starts no work of its own")
    func beginOnlyHolds() {
        let script = ScriptedDevice.backgrounded()
        let id = Box(BackgroundTaskIdentifier.invalid)
        script.at(.seconds(5)) { id.value = $0.begin() }
        script.at(.seconds(20)) { $0.end(id.value) }
        script.run(until: .seconds(60))
        #expect(script.suspendedAt == .seconds(21))
        let between = script.log.filter { $0.time > .seconds(10) && $0.time < .seconds(20) }
        #expect(between.isEmpty)
    }

    @Test("A1.2: one end balances one begin; a second end of the same id is not a task")
    func beginBalancedByOneEnd() {
        let script = ScriptedDevice.backgrounded()
        let id = Box(BackgroundTaskIdentifier.invalid)
        script.at(.seconds(5)) { id.value = $0.begin() }
        script.at(.seconds(15)) { $0.end(id.value) }
        script.at(.milliseconds(15_500)) { $0.end(id.value) }
        script.run(until: .seconds(60))
        #expect(script.times { if case .taskEnded = $0 { true } else { false } } == [.seconds(15)])
        #expect(script.times { $0 == .endedUnknownTask(id: 1) } == [.milliseconds(15_500)])
        #expect(script.terminations.isEmpty)
    }

    @Test("A1.3: tasks begun in the foreground run in parallel and are ended separately")
    func parallelTasks() {
        let script = ScriptedDevice.backgrounded()
        let first = Box(BackgroundTaskIdentifier.invalid), second = Box(BackgroundTaskIdentifier.invalid)
        script.at(.seconds(5)) { script in
            first.value = script.begin("a")
            second.value = script.begin("b")
        }
        script.at(.seconds(15)) { $0.end(first.value) }
        script.at(.seconds(20)) { $0.end(second.value) }
        script.run(until: .seconds(60))
        #expect(first.value != second.value)
        #expect(script.suspendedAt == .seconds(21))
        #expect(script.terminations.isEmpty)
    }

    @Test("A1.4: begin and end work from any queue; the expiration handler runs on the main queue")
    func anyQueueButHandlerOnMain() {
        let script = ScriptedDevice.backgrounded()
        let handlerQueue = Box<QueueID?>(nil)
        script.at(.seconds(5)) { script in
            let app = script.app
            app.backgroundQueue.async {
                let id = Box(BackgroundTaskIdentifier.invalid)
                id.value = app.beginBackgroundTask(withName: "from global") {
                    handlerQueue.value = script.currentQueue
                    app.makeSerialQueue(label: "ender").async { app.endBackgroundTask(id.value) }
                }
            }
        }
        script.run(until: .seconds(60))
        #expect(handlerQueue.value == script.app.mainQueueImpl.id)
        #expect(script.terminations.isEmpty)
        #expect(script.events { if case .taskEnded(let id, _) = $0 { id } else { nil } }.map(\.value) == [1])
    }

    @Test("A1.5: a task begun without a name gets a generated 'Called by …' name")
    func generatedName() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(5)) { $0.begin(nil) }
        script.run(until: .seconds(6))
        let names = script.events { if case .taskBegan(_, let name, _) = $0 { name } else { nil } }.map(\.value)
        #expect(names == ["Called by SimulatedApp, from scripted"])
    }

    // MARK: A2

    @Test("A2.1: with faults.beginFailureProbability 1, begin returns .invalid and no task exists")
    func beginFailureAtOne() {
        var environment = EnvironmentConfig.scripted
        environment.faults.beginFailureProbability = 1
        let script = ScriptedDevice.backgrounded(environment: environment)
        let id = Box(BackgroundTaskIdentifier(rawValue: -1))
        script.at(.seconds(12)) { id.value = $0.begin("denied") }
        script.run(until: .seconds(60))
        #expect(id.value == .invalid)
        #expect(script.names(matching: "task.") == ["task.beginDenied"])
        #expect(script.suspendedAt == .seconds(11))
    }

    @Test("A2.2: begin failure defaults to probability 0: every begin succeeds")
    func beginFailureDefaultsToZero() {
        #expect(EnvironmentConfig().faults.beginFailureProbability == 0)
        let script = ScriptedDevice.backgrounded(environment: EnvironmentConfig())
        let ids = Box<[BackgroundTaskIdentifier]>([])
        script.at(.seconds(5)) { script in
            for _ in 0..<50 { ids.value.append(script.begin()) }
        }
        script.run(until: .seconds(6))
        #expect(!ids.value.contains(.invalid))
    }

    @Test("A2.3: .invalid signals an error: a dead process returns it, and ending it touches no task")
    func invalidSignalsErrors() {
        var profile = OSProfile.ios17
        profile.willTerminateOnForceQuit = false  // the process dies at once (B3.2, B3.3)
        let script = ScriptedDevice.backgrounded(profile)
        let afterDeath = Box(BackgroundTaskIdentifier(rawValue: -1))
        script.at(.seconds(5)) { script in
            script.begin("kept")
            script.end(.invalid)
        }
        script.at(.seconds(15)) { script in
            #expect(script.app.core.openTasks.map(\.id) == [1])
            script.forceQuit()
            afterDeath.value = script.begin()
        }
        script.run(until: .seconds(20))
        #expect(afterDeath.value == .invalid)
    }

    @Test("A2.4: .invalid is 0 and no real task gets 0")
    func invalidIsZero() {
        #expect(BackgroundTaskIdentifier.invalid.rawValue == 0)
        let script = ScriptedDevice.backgrounded()
        let id = Box(BackgroundTaskIdentifier.invalid)
        script.at(.seconds(5)) { id.value = $0.begin() }
        script.run(until: .seconds(6))
        #expect(id.value.rawValue == 1)
    }

    @Test("A2.5: identifiers count up from 1, are never reused, and start again in a new process")
    func identifiersCountUp() {
        let script = ScriptedDevice.backgrounded()
        let ids = Box<[Int]>([])
        script.at(.seconds(5)) { script in
            for _ in 0..<3 {
                let id = script.begin()
                ids.value.append(id.rawValue)
                script.end(id)
            }
            ids.value.append(script.begin().rawValue)
        }
        script.at(.seconds(20)) { $0.forceQuit() }
        script.at(.seconds(30)) { $0.launch() }
        script.at(.seconds(31)) { ids.value.append($0.begin().rawValue) }
        script.run(until: .seconds(32))
        #expect(ids.value == [1, 2, 3, 4, 1])
    }

    @Test("A2.6: past OSProfile.taskLimit open tasks the app dies with 0xbada5e47; ios6 has no limit")
    func taskLimit() {
        for (profile, begins, killed) in [(OSProfile.ios17, 1_001, true), (.ios17, 1_000, false), (.ios6, 1_500, false)] {
            let script = ScriptedDevice.backgrounded(profile)
            script.at(.seconds(5)) { script in
                for _ in 0..<begins { script.begin() }
            }
            script.run(until: .seconds(6))
            #expect(script.terminations.map(\.value) == (killed ? [.taskLimit] : []), "\(profile.name) \(begins)")
        }
        #expect(TerminationReason.taskLimit.exceptionCode == "0xbada5e47")
        var small = OSProfile.ios17
        small.taskLimit = 3
        let script = ScriptedDevice.backgrounded(small)
        script.at(.seconds(5)) { script in
            for _ in 0..<4 { script.begin() }
        }
        script.run(until: .seconds(6))
        #expect(script.terminations.map(\.value) == [.taskLimit])
    }

    // MARK: A3

    @Test("A3.1: the expiry callout calls every handler synchronously on the main queue")
    func handlersSynchronousOnMain() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(5)) { script in
            script.begin("a")
            script.begin("b")
        }
        script.run(until: .seconds(60))
        #expect(script.names(matching: "task.expiration", "task.end") == [
            "task.expirationCallout", "task.expirationHandler", "task.end", "task.expirationHandler", "task.end",
            "task.expirationHandlersReturned",
        ])
        let callout = script.times { if case .expirationCallout = $0 { true } else { false } }
        #expect(callout == [.seconds(36)])
        #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 1)) == [.seconds(36)])
        #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 2)) == [.seconds(36)])
    }

    @Test("A3.2: a handler that ends its task leaves nothing open: no warning, no kill, suspension")
    func handlerEndsTask() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(5)) { $0.begin() }
        script.run(until: .seconds(60))
        #expect(!script.console.contains { $0.contains("still not ended") })
        #expect(script.terminations.isEmpty)
        #expect(script.suspendedAt == .seconds(37))
    }

    @Test("A3.3: an early expiry calls the handlers at once, long before the budget ends")
    func earlyExpiry() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(5)) { $0.begin() }
        script.at(.seconds(15)) { $0.earlyExpiry() }
        script.run(until: .seconds(60))
        let callouts = script.events { if case .expirationCallout(_, let early) = $0 { early } else { nil } }
        #expect(callouts.map(\.time) == [.seconds(15)])
        #expect(callouts.map(\.value) == [true])
        #expect(script.suspendedAt == .seconds(16))
    }

    @Test("A3.3: the earlyExpiry weight drives early expiry; weight 0 never does")
    func earlyExpiryWeight() {
        #expect(ActionWeights.standard[.earlyExpiry] > 0)
        #expect(DriverProbe.isDrivenByWeight(.earlyExpiry))
    }

    @Test("A3.4: a task begun once the budget is spent has its handler called at once")
    func taskNotGranted() {
        let script = ScriptedDevice.backgrounded()
        let late = Box(BackgroundTaskIdentifier.invalid)
        script.at(.seconds(5)) { $0.begin("first") }
        script.at(.milliseconds(36_500)) { late.value = $0.begin("late") }
        script.run(until: .seconds(60))
        #expect(script.handlerCalls(late.value) == [.milliseconds(36_500)])
        #expect(script.terminations.isEmpty)
    }

    @Test("A3.5: every outstanding handler runs in turn, in OSProfile.expirationHandlerOrder",
          arguments: [(OSProfile.ExpirationHandlerOrder.beginOrder, [1, 2, 3]), (.reverseBeginOrder, [3, 2, 1]),
                      (.drawn, [1, 2, 3])])
    func handlerOrder(order: OSProfile.ExpirationHandlerOrder, expected: [Int]) {
        var profile = OSProfile.ios17
        profile.expirationHandlerOrder = order
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(5)) { script in
            for _ in 0..<3 { script.begin() }
        }
        script.run(until: .seconds(60))
        let called = script.events { if case .expirationHandlerCalled(let id) = $0 { id } else { nil } }
        #expect(called.map(\.value) == expected)
    }

    @Test("A3.5: handlers running longer than OSProfile.expirationHandlerWatchdog in total kill the app")
    func handlerWatchdog() {
        for (watchdog, killed) in [(VirtualDuration.seconds(3), true), (.seconds(5), false)] {
            var profile = OSProfile.ios17
            profile.expirationHandlerWatchdog = watchdog
            let script = ScriptedDevice.backgrounded(profile)
            script.at(.seconds(5)) { script in
                script.begin(onExpiry: .blockThenEnd(.seconds(2)))
                script.begin(onExpiry: .blockThenEnd(.seconds(2)))
            }
            script.run(until: .seconds(60))
            // The callout is at 36 s; the handlers block main for 4 s in all. The watchdog kills at
            // its limit while they still run (just past 36 s + limit), not when they return.
            let killedAt = VirtualTime.seconds(36) + watchdog + .microseconds(1)
            #expect(script.terminations.map(\.time) == (killed ? [killedAt] : []), "watchdog \(watchdog)")
        }
    }

    @Test("A3.6: a task still open after the handlers return logs 'still not ended' with elapsed = 26")
    func stillNotEnded() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(10)) { $0.begin("upload", onExpiry: .nothing) }
        script.run(until: .seconds(60))
        let lines = script.events { if case .console(let line) = $0, line.contains("still not ended") { line } else { nil } }
        #expect(lines.map(\.time) == [.seconds(36)])
        #expect(lines.first?.value.hasPrefix(
            "[BackgroundTask] Background task still not ended after expiration handlers were called: ") == true)
        #expect(lines.first?.value.contains("taskID = 1, taskName = upload") == true)
        #expect(lines.first?.value.contains("(elapsed = 26). This app will likely be terminated by the system. "
            + "Call UIApplication.endBackgroundTask(_:) to avoid this.") == true)
    }

    @Test("A3.7: handlers run OSProfile.expiryLead before the deadline: 4 s by default, 10 s when set")
    func expiryLead() {
        for (lead, callout) in [(VirtualDuration.seconds(4), VirtualTime.seconds(36)), (.seconds(10), .seconds(30))] {
            var profile = OSProfile.ios17
            profile.expiryLead = lead
            let script = ScriptedDevice.backgrounded(profile)
            script.at(.seconds(5)) { $0.begin() }
            script.run(until: .seconds(60))
            #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 1)) == [callout])
        }
        #expect(OSProfile.ios17.expiryLead == .seconds(4))
    }

    @Test("A3.8: a handler that does not end its task is not called again in a later background stay")
    func handlerNotCalledTwice() {
        let script = ScriptedDevice.backgrounded()
        script.at(.seconds(5)) { $0.begin(onExpiry: .nothing) }
        script.at(.seconds(38)) { $0.open() }
        script.at(.seconds(50)) { $0.home() }
        script.run(until: .seconds(120))
        #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 1)) == [.seconds(36)])
        #expect(script.terminations.map(\.time) == [.seconds(80)])
    }

    @Test("A3.8: an early expiry after the callout does not call the handler a second time")
    func handlerNotCalledTwiceEarly() {
        var profile = OSProfile.ios17
        profile.budgetResetsOnForeground = true
        let script = ScriptedDevice.backgrounded(profile)
        script.at(.seconds(5)) { $0.begin(onExpiry: .nothing) }
        script.at(.seconds(12)) { $0.earlyExpiry() }
        script.at(.seconds(13)) { $0.open() }
        script.at(.seconds(20)) { $0.home() }
        script.at(.seconds(25)) { $0.earlyExpiry() }
        script.run(until: .seconds(120))
        #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 1)) == [.seconds(12)])
    }
}
