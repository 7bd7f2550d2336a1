import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// Rules C6: iOS 26 continued-processing tasks. The app launches at 0 s under iOS 26 and submits
/// from the foreground at 1 s.
@Suite struct ContinuedProcessingRuleTests {
    typealias S = ScriptedDevice

    /// An iOS 26 app whose continued-processing launch handler does `behaviour`.
    static func device(
        behaviour: TaskBehaviour = .progress(every: .seconds(10)), busy: Double = 0, profile: OSProfile = .ios26
    ) -> ScriptedDevice {
        var environment = EnvironmentConfig.scripted
        environment.faults.systemBusyProbability = busy
        let script = S.withTasks(profile, identifiers: [S.continued], behaviour: behaviour, environment: environment)
        script.at(.zero) { $0.launch() }
        return script
    }

    @Test("C6.1: a continued-processing request submitted in the foreground starts at once and runs on in the background")
    func startsAtOnce() {
        let script = Self.device()
        script.at(.seconds(1)) { $0.submit(S.continued, S.continuedKind) }
        script.at(.seconds(10)) { $0.home() }
        script.run(until: .seconds(200))
        #expect(script.bgLaunches.map(\.time) == [.seconds(1)])
        #expect(script.suspendedAt == nil)
        #expect(script.bgExpiries.isEmpty)
    }

    @Test("C6.2: wildcard identifiers are permitted and may be registered after launch, but only once each")
    func wildcardRegistration() {
        let script = Self.device(behaviour: .completeAfter(.seconds(1)))
        let results = Box<[Bool]>([])
        script.at(.seconds(5)) { script in
            results.value.append(script.register("com.example.continued.late"))
            results.value.append(script.register("com.example.other"))
        }
        script.at(.seconds(6)) { $0.register("com.example.continued.late") }
        script.run(until: .seconds(10))
        #expect(results.value == [true, false])
        #expect(script.terminations.map(\.value) == [.exception(name: "NSInternalInconsistencyException",
            reason: "Launch handler for task with identifier com.example.continued.late has already been registered")])
    }

    @Test("C6.2, C1.2: before iOS 26 a wildcard entry permits nothing: register returns false, submit throws notPermitted")
    func noWildcardsBeforeIOS26() {
        let script = Self.device(profile: .ios17)
        let results = Box<[Bool]>([])
        let error = Box<TaskSchedulerError?>(nil)
        script.at(.seconds(1)) { script in
            results.value.append(script.register("com.example.continued.late"))
            error.value = script.submit("com.example.continued.late", .appRefresh)
        }
        script.run(until: .seconds(10))
        #expect(results.value == [false])
        #expect(error.value == .notPermitted)
        #expect(script.terminations.isEmpty)
    }

    @Test("C6.3: earliestBeginDate is ignored for continued processing")
    func earliestDateIgnored() {
        let script = Self.device()
        script.at(.seconds(1)) { $0.submit(S.continued, S.continuedKind, earliest: $0.scheduler.now.addingTimeInterval(3_600)) }
        script.run(until: .seconds(5))
        #expect(script.bgLaunches.map(\.time) == [.seconds(1)])
    }

    @Test("C6.4: faults.systemBusyProbability 1: .fail is rejected with immediateRunIneligible, .queue waits",
          arguments: [TaskRequest.SubmissionStrategy.fail, .queue])
    func busySystem(strategy: TaskRequest.SubmissionStrategy) {
        let script = Self.device(busy: 1)
        let error = Box<TaskSchedulerError?>(nil)
        script.at(.seconds(1)) { error.value = $0.submit(S.continued, S.continuedKind(strategy)) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.open() }
        script.run(until: .seconds(30))
        #expect(error.value == (strategy == .fail ? .immediateRunIneligible : nil))
        #expect(script.pendingIdentifiers == (strategy == .fail ? [] : [S.continued]))
        #expect(script.bgLaunches.isEmpty)
    }

    @Test("C6.4: a queued request dies with a process killed by jetsam, unless continuedProcessingQueueOutlivesProcess",
          arguments: [false, true])
    func queuedRequestAndProcessDeath(outlives: Bool) {
        var profile = OSProfile.ios26
        profile.continuedProcessingQueueOutlivesProcess = outlives
        let script = Self.device(busy: 1, profile: profile)
        let identifier = "com.example.continued.queued"
        script.at(.seconds(1)) { script in
            script.register(identifier)  // as apps do, just before submitting (C6.2)
            #expect(script.submit(identifier, S.continuedKind(.queue)) == nil)
        }
        script.at(.seconds(2)) { #expect($0.pendingIdentifiers == [identifier]) }
        script.at(.seconds(3)) { $0.home() }
        script.at(.seconds(4)) { $0.memoryPressureKill() }
        script.run(until: .seconds(10))
        #expect(script.pendingIdentifiers == (outlives ? [identifier] : []))
        #expect(script.bgLaunches.isEmpty)
    }

    @Test("C6.4: a queued request starts when the running one completes, or when the user returns to the app")
    func queuedStarts() {
        let script = Self.device(behaviour: .completeAfter(.seconds(30)))
        script.at(.seconds(1)) { $0.submit(S.continued, S.continuedKind) }
        script.at(.seconds(5)) { script in
            script.register("com.example.continued.second", behaviour: .completeAfter(.seconds(5)))
            script.register("com.example.continued.third", behaviour: .completeAfter(.seconds(5)))
        }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(12)) { #expect($0.submit("com.example.continued.second", S.continuedKind) == nil) }
        script.at(.seconds(50)) { #expect($0.submit("com.example.continued.third", S.continuedKind) == nil) }
        script.at(.seconds(60)) { $0.open() }
        script.run(until: .seconds(100))
        #expect(script.bgLaunches.map(\.time) == [.seconds(1), .seconds(31), .seconds(60)])
        #expect(script.bgLaunches.map(\.value) == [S.continued, "com.example.continued.second", "com.example.continued.third"])
    }

    @Test("C6.6: progress reports are recorded and keep the task alive")
    func progress() {
        let script = Self.device()
        script.at(.seconds(1)) { $0.submit(S.continued, S.continuedKind) }
        script.run(until: .seconds(100))
        let reports = script.events { if case .bgTaskProgress(_, _, let done, _) = $0 { done } else { nil } }
        #expect(reports.map(\.value) == Array(1...9))
        #expect(reports.first?.time == .seconds(11))
        #expect(script.bgExpiries.isEmpty)
    }

    @Test("C6.7: OSProfile.continuedProcessingStallLimit: no progress for that long expires the task, then it is killed",
          arguments: [Int64(30), 60])
    func stall(limit: Int64) {
        var profile = OSProfile.ios26
        profile.continuedProcessingStallLimit = .seconds(limit)
        let script = Self.device(behaviour: .never, profile: profile)
        script.at(.seconds(1)) { $0.submit(S.continued, S.continuedKind) }
        script.at(.seconds(11)) { $0.launchedTasks.value[0].updateProgress(completedUnitCount: 1, totalUnitCount: 10) }
        script.at(.seconds(12)) { $0.launchedTasks.value[0].updateProgress(completedUnitCount: 1, totalUnitCount: 10) }
        script.run(until: .seconds(200))
        #expect(script.bgExpiries.map(\.time) == [.seconds(11 + limit)])
        #expect(script.terminations.map(\.time) == [.seconds(11 + limit + 4)])
    }

    @Test("C6.8: the user's cancel expires the task at any time; with progress there is no time limit")
    func userCancel() {
        let script = Self.device()
        script.at(.seconds(1)) { $0.submit(S.continued, S.continuedKind) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(900)) { $0.perform(.userCancelsContinuedTask) }
        script.run(until: .seconds(1_000))
        #expect(script.bgExpiries.map(\.time) == [.seconds(900)])
        #expect(script.bgCompletions.map(\.value.success) == [false])
        #expect(script.terminations.isEmpty)
    }

    @Test("C6.9: a force-quit cancels running and queued continued-processing work without telling the app")
    func forceQuitCancels() {
        let script = Self.device(behaviour: .completeAfter(.seconds(100)))
        script.at(.seconds(1)) { $0.submit(S.continued, S.continuedKind) }
        script.at(.seconds(2)) { $0.register("com.example.continued.second") }
        script.at(.seconds(3)) { $0.home() }
        script.at(.seconds(4)) { $0.submit("com.example.continued.second", S.continuedKind) }
        script.at(.seconds(5)) { $0.forceQuit() }
        script.run(until: .seconds(200))
        #expect(script.bgExpiries.isEmpty)
        #expect(script.pendingIdentifiers.isEmpty)
        #expect(script.terminations.map(\.value) == [.forceQuit])
    }

    @Test("C6.11: a running task can expire while the app is in the foreground; the expireBackgroundTask weight drives it")
    func foregroundExpiry() {
        let script = Self.device()
        script.at(.seconds(1)) { $0.submit(S.continued, S.continuedKind) }
        script.at(.seconds(5)) { $0.perform(.expireBackgroundTask) }
        script.run(until: .seconds(20))
        #expect(script.bgExpiries.map(\.time) == [.seconds(5)])
        #expect(script.app.state == .active)

        func foregroundExpiries(_ weight: Double) -> Int {
            DriverProbe.traces(of: .expireBackgroundTask, weight: weight).reduce(0) { total, trace in
                var state = AppProcessState.notRunning
                var count = 0
                for entry in trace {
                    if case .stateChanged(_, let to) = entry.event { state = to }
                    if entry.event == .action(.expireBackgroundTask), state.isForeground { count += 1 }
                }
                return total + count
            }
        }
        #expect(foregroundExpiries(5) > 0)
        #expect(foregroundExpiries(0) == 0)
    }
}
