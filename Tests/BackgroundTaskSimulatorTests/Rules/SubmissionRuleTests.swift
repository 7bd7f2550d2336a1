import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// Rules C2.5, C2.6, C5.3, C6.5 and C6.10: submissions that succeed without effect, the iOS 27
/// asynchronous submit, the Simulator, the GPU entitlement and Live Activity items.
@Suite struct SubmissionRuleTests {
    typealias S = ScriptedDevice

    @Test("C2.5: with submitDropProbability 1 submit succeeds but nothing is pending or launched; by default it is")
    func droppedSubmission() {
        func run(dropping chance: Double) -> (error: TaskSchedulerError?, pending: [String], launches: Int) {
            var profile = OSProfile.ios17
            profile.submitDropProbability = chance
            let script = S.withTasks(profile, identifiers: [S.refresh])
            let error = Box<TaskSchedulerError?>(nil)
            script.at(.zero) { $0.launch() }
            script.at(.seconds(1)) { error.value = $0.submit(S.refresh) }
            script.at(.seconds(2)) { $0.home() }
            let pending = Box<[String]>([])
            script.at(.seconds(3)) { pending.value = $0.pendingIdentifiers }
            script.at(.seconds(20)) { $0.launchEligibleTask() }
            script.run(until: .seconds(60))
            return (error.value, pending.value, script.bgLaunches.count)
        }
        let dropped = run(dropping: 1)
        #expect(dropped.error == nil)
        #expect(dropped.pending.isEmpty)
        #expect(dropped.launches == 0)
        let kept = run(dropping: 0)
        #expect(kept.error == nil)
        #expect(kept.pending == [S.refresh])
        #expect(kept.launches == 1)
    }

    @Test("C2.6: the asynchronous submit reports on a background queue after the delay; the request is pending only then")
    func asynchronousSubmit() {
        var profile = OSProfile.ios17
        profile.asynchronousSubmitDelay = .seconds(2)
        let script = S.withTasks(profile, identifiers: [S.refresh])
        let reports = Box<[(time: VirtualTime, error: TaskSchedulerError?, onMain: Bool)]>([])
        let pendingRightAfter = Box<[String]>(["unset"])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            let app = script.app
            for identifier in [S.refresh, "com.example.unknown"] {
                script.scheduler.submit(TaskRequest(identifier: identifier, kind: .appRefresh)) { error in
                    reports.value.append((app.device.now, error, app.isMainThread))
                }
            }
            pendingRightAfter.value = script.pendingIdentifiers
        }
        script.run(until: .seconds(10))
        #expect(pendingRightAfter.value.isEmpty)
        #expect(reports.value.map(\.time) == [.seconds(3), .seconds(3)])
        #expect(reports.value.map(\.error) == [nil, .notPermitted])
        #expect(reports.value.allSatisfy { !$0.onMain })
        #expect(script.pendingIdentifiers == [S.refresh])
    }

    @Test("C5.3: in the Simulator submit fails with unavailable and the debug launch finds nothing; on a device it launches")
    func debugFunctionsOnlyOnDevices() {
        func run(inSimulator: Bool) -> (error: TaskSchedulerError?, launches: Int, console: [String]) {
            var profile = OSProfile.ios17
            profile.runsInSimulator = inSimulator
            let script = S.withTasks(profile, identifiers: [S.refresh])
            let error = Box<TaskSchedulerError?>(nil)
            script.at(.zero) { $0.launch() }
            script.at(.seconds(1)) { error.value = $0.submit(S.refresh) }
            script.at(.seconds(2)) { $0.scheduler.simulateLaunch(forTaskWithIdentifier: S.refresh) }
            script.run(until: .seconds(20))
            return (error.value, script.bgLaunches.count, script.console)
        }
        let simulator = run(inSimulator: true)
        #expect(simulator.error == .unavailable)
        #expect(simulator.launches == 0)
        #expect(simulator.console.contains { $0.contains("has been scheduled") })  // C5.4's message
        let device = run(inSimulator: false)
        #expect(device.error == nil)
        #expect(device.launches == 1)
    }

    @Test("C6.5: a GPU continued-processing request needs the entitlement and device support, else notPermitted")
    func gpuNeedsEntitlement() {
        func submit(entitled: Bool, supported: Bool = true, gpu: Bool = true) -> TaskSchedulerError? {
            var profile = OSProfile.ios26
            profile.supportsBackgroundGPU = supported
            let script = ScriptedDevice(profile: profile, permitted: [S.continuedFamily],
                                        entitlements: entitled ? [WorkloadInfo.backgroundGPUEntitlement] : [])
            let failure = Box<TaskSchedulerError?>(nil)
            script.at(.zero) { $0.launch() }
            script.at(.seconds(1)) { script in
                script.register(S.continued)
                var request = TaskRequest(identifier: S.continued, kind: S.continuedKind)
                request.requiresBackgroundGPU = gpu
                do throws(TaskSchedulerError) {
                    try script.scheduler.submit(request)
                } catch {
                    failure.value = error
                }
            }
            script.run(until: .seconds(2))
            #expect(script.scheduler.supportsBackgroundGPU == supported)
            return failure.value
        }
        #expect(submit(entitled: false) == .notPermitted)
        #expect(submit(entitled: true) == nil)
        #expect(submit(entitled: true, supported: false) == .notPermitted)
        #expect(submit(entitled: false, gpu: false) == nil)
    }

    @Test("C6.10: resubmitting after a failure shows two Live Activity items, the failed one and the new one")
    func resubmitShowsTwoItems() {
        let script = S.withTasks(.ios26, identifiers: [S.continued], behaviour: .progress(every: .seconds(1)))
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.submit(S.continued, S.continuedKind) }
        script.at(.seconds(5)) { script in  // the user cancels it from the Live Activity (C6.8)
            if let task = script.app.core.runningTasks.first { script.device.taskScheduler.userCancelsContinuedTask(task) }
        }
        script.at(.seconds(20)) { $0.submit(S.continued, S.continuedKind) }
        script.at(.seconds(21)) { $0.scheduler.cancel(taskRequestWithIdentifier: S.continued) }
        script.run(until: .seconds(25))
        #expect(script.scheduler.liveActivities.map(\.state) == [.failed, .running])
        #expect(script.scheduler.liveActivities.map(\.identifier) == [S.continued, S.continued])
    }
}
