import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// Rules C1-C3: BGTaskScheduler registration, submission and requests (C4-C5, tasks at run time
/// and the debugger commands, in TaskSchedulerRuleTests+Runtime.swift). The app launches at 0 s and registers its identifiers, goes home at 10 s
/// (suspended at 11 s); the system launches a task at 20 s, so a refresh task expires at 46 s
/// and is killed at 50 s.
@Suite struct TaskSchedulerRuleTests {
    typealias S = ScriptedDevice

    /// A submitted refresh (or `kind`) request launched at 20 s in the suspended app.
    static func launched(
        _ profile: OSProfile = .ios17, kind: TaskRequest.Kind = .appRefresh, behaviour: TaskBehaviour = .never
    ) -> ScriptedDevice {
        let identifier = kind == .appRefresh ? S.refresh : S.processing
        let script = S.withTasks(profile, behaviour: behaviour)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { #expect($0.submit(identifier, kind) == nil) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.launchEligibleTask() }
        return script
    }

    static func crashReason(_ script: ScriptedDevice) -> String? {
        if case .exception(_, let reason) = script.terminations.first?.value { return reason }
        return nil
    }

    // MARK: C1

    @Test("C1.1: handlers registered at launch are accepted; a launch with no handler registered crashes")
    func registerAtLaunch() {
        let script = S.withTasks()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh) }
        script.at(.seconds(2)) { $0.forceQuit() }
        script.at(.seconds(3)) { script in
            script.hooks.didFinishLaunching = { _ in }  // the next process registers nothing
            script.launch()
        }
        script.at(.seconds(4)) { $0.home() }
        script.at(.seconds(10)) { $0.launchEligibleTask() }
        script.run(until: .seconds(20))
        #expect(script.events { if case .taskRegistered(_, let ok) = $0 { ok } else { nil } }.map(\.value) == [true, true])
        #expect(script.terminations.map(\.value) == [.forceQuit, .exception(name: "NSInternalInconsistencyException",
            reason: "No launch handler registered for task with identifier \(S.refresh)")])
    }

    @Test("C1.2: register returns false for an identifier not in BGTaskSchedulerPermittedIdentifiers")
    func notPermitted() {
        let script = S.withTasks(identifiers: [])
        let result = Box<Bool?>(nil)
        script.hooks.didFinishLaunching = { [unowned script] _ in result.value = script.register("com.other.task") }
        script.at(.zero) { $0.launch() }
        script.run(until: .seconds(1))
        #expect(result.value == false)
        #expect(script.terminations.isEmpty)
    }

    @Test("C1.3: registering the same identifier twice crashes the app")
    func registerTwice() {
        let script = S.withTasks(identifiers: [S.refresh, S.refresh])
        script.at(.zero) { $0.launch() }
        script.run(until: .seconds(1))
        #expect(Self.crashReason(script) == "Launch handler for task with identifier \(S.refresh) has already been registered")
    }

    @Test("C1.4: registering after launch finished crashes with 'All launch handlers must be registered…'")
    func registerLate() {
        let script = S.withTasks(identifiers: [])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(5)) { $0.register(S.refresh) }
        script.run(until: .seconds(6))
        #expect(Self.crashReason(script) == "All launch handlers must be registered before application finishes launching")
        #expect(script.terminations.map(\.time) == [.seconds(5)])
    }

    @Test("C1.5: launch and expiration handlers run on the registration queue; nil means the framework's serial queue",
          arguments: [true, false])
    func registrationQueue(onMain: Bool) throws {
        let script = S.withTasks(identifiers: [])
        let queues = Box<[QueueID?]>([])
        script.hooks.didFinishLaunching = { [unowned script] context in
            let queue: (any WorkQueue)? = onMain ? context.application.mainQueue : nil
            _ = context.taskScheduler.register(forTaskWithIdentifier: S.refresh, using: queue) { task in
                queues.value.append(script.currentQueue)
                task.expirationHandler = {
                    queues.value.append(script.currentQueue)
                    task.setTaskCompleted(success: false)
                }
            }
        }
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh) }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { $0.launchEligibleTask() }
        script.run(until: .seconds(60))
        let expected = try #require(queues.value.first ?? nil)
        #expect(queues.value == [expected, expected])
        if onMain {
            #expect(expected == script.app.mainQueueImpl.id)
        } else {  // its own serial queue, not the app's concurrent global queue
            #expect(script.device.scheduler.label(of: expected) == "p1.com.apple.BGTaskScheduler (\(S.refresh))")
            #expect(script.device.scheduler.kind(of: expected) == .serial)
        }
    }

    @Test("C1.6: registrations last for one process: a new process starts with none and registers again")
    func registrationsPerProcess() {
        let script = S.withTasks()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(5)) { $0.memoryPressureKill() }
        script.at(.seconds(6)) { $0.launch() }
        script.run(until: .seconds(7))
        #expect(script.device.processCount == 2)
        #expect(script.app.core.registrations.map(\.identifier) == [S.refresh, S.processing])
        #expect(script.events { if case .taskRegistered(_, let ok) = $0 { ok } else { nil } }.count == 4)
        #expect(script.terminations.map(\.value) == [.memoryPressure])
    }

    // MARK: C2

    @Test("C2.1: submitting the same identifier again replaces the pending request")
    func replaceByIdentifier() throws {
        let script = S.withTasks()
        let later = VirtualDate.date(for: .seconds(500))
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            script.submit(S.refresh)
            script.submit(S.refresh, earliest: later)
        }
        script.run(until: .seconds(2))
        #expect(script.device.taskScheduler.pending == [TaskRequest(identifier: S.refresh, kind: .appRefresh,
                                                                    earliestBeginDate: later)])
    }

    @Test("C2.2: OSProfile pending limits: 1 refresh and 10 processing by default, then tooManyPendingTaskRequests")
    func pendingLimits() {
        let ids = (0...10).map { "com.example.p\($0)" }
        for refreshLimit in [1, 2] {
            var profile = OSProfile.ios17
            profile.maxPendingRefreshRequests = refreshLimit
            let hooks = ScriptedHooks()
            let script = ScriptedDevice(profile: profile, permitted: ids + ["com.example.r2", S.refresh], hooks: hooks)
            hooks.didFinishLaunching = { [unowned script] _ in
                for id in ids + [S.refresh, "com.example.r2"] { script.register(id) }
            }
            let errors = Box<[TaskSchedulerError?]>([])
            script.at(.zero) { $0.launch() }
            script.at(.seconds(1)) { script in
                errors.value.append(script.submit(S.refresh))
                errors.value.append(script.submit("com.example.r2"))
                errors.value.append(script.submit(S.refresh))
                for id in ids { errors.value.append(script.submit(id, S.processingKind)) }
            }
            script.run(until: .seconds(2))
            let refreshErrors = refreshLimit == 1 ? [nil, .tooManyPendingTaskRequests, nil] : [nil, nil, nil] as [TaskSchedulerError?]
            #expect(errors.value == refreshErrors + Array(repeating: nil, count: 10) + [.tooManyPendingTaskRequests])
        }
        #expect(OSProfile.ios17.maxPendingRefreshRequests == 1 && OSProfile.ios17.maxPendingProcessingRequests == 10)
    }

    @Test("C2.3: submit errors: unavailable with refresh off or no BGTaskScheduler, notPermitted without the mode or identifier")
    func submitErrors() {
        let errors = Box<[TaskSchedulerError?]>([])
        let script = S.withTasks()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            errors.value.append(script.submit("com.other.task"))
            script.perform(.backgroundRefreshOff)
            errors.value.append(script.submit(S.refresh))
        }
        let noModes = ScriptedDevice(modes: [])
        noModes.hooks.didFinishLaunching = { [unowned noModes] _ in
            noModes.register(S.refresh)
            noModes.register(S.processing)
        }
        noModes.at(.zero) { $0.launch() }
        noModes.at(.seconds(1)) { script in
            errors.value.append(script.submit(S.refresh))
            errors.value.append(script.submit(S.processing, S.processingKind))
        }
        let old = S.withTasks(.ios12, identifiers: [])
        old.at(.zero) { $0.launch() }
        old.at(.seconds(1)) { errors.value.append($0.submit(S.refresh)) }
        for device in [script, noModes, old] { device.run(until: .seconds(2)) }
        #expect(errors.value == [.notPermitted, .unavailable, .notPermitted, .notPermitted, .unavailable])
        #expect(TaskSchedulerError.allRawValues == [1, 2, 3, 4])
    }

    @Test("C2.4: submitting a permitted identifier with no handler registered crashes the app")
    func submitWithoutHandler() {
        let script = S.withTasks(identifiers: [])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.refresh) }
        script.run(until: .seconds(2))
        #expect(Self.crashReason(script) == "No launch handler registered for task with identifier \(S.refresh)")
    }

    // MARK: C3

    @Test("C3.1: earliestBeginDate is a lower bound: not eligible a microsecond before, eligible at it")
    func earliestBeginDate() {
        let script = S.withTasks()
        let eligible = Box<[Bool]>([])
        script.at(.zero) { $0.launch() }
        script.at(.milliseconds(1_300)) { $0.submit(S.refresh, earliest: $0.scheduler.now.addingTimeInterval(60)) }
        script.at(.seconds(10)) { $0.home() }
        let due = VirtualTime.milliseconds(61_300)
        script.at(due - .microseconds(1)) { eligible.value.append(!$0.device.taskScheduler.eligibleRequests().isEmpty) }
        script.at(due) { script in
            eligible.value.append(!script.device.taskScheduler.eligibleRequests().isEmpty)
            script.launchEligibleTask()
        }
        script.run(until: .seconds(70))
        #expect(eligible.value == [false, true])
        #expect(script.bgLaunches.map(\.time) == [due])
    }

    @Test("C3.1: VirtualDate round-trips every instant exactly, and a date between instants rounds up")
    func virtualDateRoundTrip() {
        for micros in stride(from: Int64(0), through: 400_000_000_000, by: 7_777_777) {
            let time = VirtualTime(microseconds: micros)
            #expect(VirtualDate.time(for: VirtualDate.date(for: time)) == time)
            let later = VirtualDate.date(for: time).addingTimeInterval(900)
            #expect(VirtualDate.time(for: later) == time + .seconds(900), "at \(micros) µs")
        }
        let between = VirtualDate.date(for: .seconds(10)).addingTimeInterval(0.000_000_6)
        #expect(VirtualDate.time(for: between) == .seconds(10) + .microseconds(1))
    }

    @Test("C3.2: the launchBackgroundTask weight decides when refresh runs; weight 0 never launches one")
    func refreshWhenSystemSeesFit() {
        func refreshLaunches(_ weight: Double) -> Int {
            DriverProbe.traces(of: .launchBackgroundTask, weight: weight, profile: .ios17).joined().filter {
                if case .bgTaskLaunched(_, _, "appRefresh") = $0.event { true } else { false }
            }.count
        }
        #expect(refreshLaunches(5) > 0)
        #expect(refreshLaunches(0) == 0)
    }

    @Test("C3.3: a processing request waits for the network and the external power it requires")
    func processingRequirements() {
        let script = S.withTasks(environment: EnvironmentConfig(weights: ActionWeights(), faults: .init(systemBusyProbability: 0),
                                                                 networkInitiallyAvailable: false))
        let eligible = Box<[Int]>([])
        func count(_ script: ScriptedDevice) { eligible.value.append(script.device.taskScheduler.eligibleRequests().count) }
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            script.submit(S.processing, .processing(requiresNetworkConnectivity: true, requiresExternalPower: true))
        }
        script.at(.seconds(10)) { $0.home() }
        script.at(.seconds(20)) { count($0) }
        script.at(.seconds(21)) { script in
            script.perform(.networkUp)
            count(script)
        }
        script.at(.seconds(22)) { script in
            script.perform(.powerConnected)
            count(script)
            script.perform(.networkDown)
            count(script)
        }
        script.run(until: .seconds(30))
        #expect(eligible.value == [0, 0, 1, 0])
        #expect(EnvironmentConfig().externalPowerInitiallyConnected == false)
    }

    @Test("C3.4: getPendingTaskRequests hands copies to a background queue")
    func pendingCopies() {
        let script = S.withTasks()
        let delivered = Box<(requests: [TaskRequest], queue: QueueID?)>(([], nil))
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            script.submit(S.refresh)
            script.scheduler.getPendingTaskRequests { requests in
                var copy = requests
                delivered.value = (requests, script.currentQueue)
                copy[0].identifier = "changed"
            }
        }
        script.run(until: .seconds(2))
        #expect(delivered.value.requests.map(\.identifier) == [S.refresh])
        #expect(delivered.value.queue == script.app.backgroundQueueImpl.id)
        #expect(script.pendingIdentifiers == [S.refresh])
    }

    @Test("C3.5: cancel removes one pending request, cancelAll every one")
    func cancelRequests() {
        let script = S.withTasks()
        let seen = Box<[[String]]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            script.submit(S.refresh)
            script.submit(S.processing, S.processingKind)
            script.scheduler.cancel(taskRequestWithIdentifier: S.refresh)
            seen.value.append(script.pendingIdentifiers)
            script.submit(S.refresh)
            script.scheduler.cancelAllTaskRequests()
            seen.value.append(script.pendingIdentifiers)
        }
        script.run(until: .seconds(2))
        #expect(seen.value == [[S.processing], []])
    }

    @Test("C3.6: a launch consumes the request: nothing stays pending and it runs once per submit")
    func launchConsumes() {
        let script = Self.launched(behaviour: .completeAfter(.seconds(5)))
        script.at(.seconds(30)) { $0.launchEligibleTask() }
        script.at(.seconds(31)) { $0.scheduler.simulateLaunch(forTaskWithIdentifier: S.refresh) }
        script.run(until: .seconds(60))
        #expect(script.pendingIdentifiers.isEmpty)
        #expect(script.bgLaunches.map(\.time) == [.seconds(20)])
    }
}

extension TaskSchedulerError {
    static var allRawValues: [Int] {
        [TaskSchedulerError.unavailable, .tooManyPendingTaskRequests, .notPermitted, .immediateRunIneligible].map(\.rawValue)
    }
}
