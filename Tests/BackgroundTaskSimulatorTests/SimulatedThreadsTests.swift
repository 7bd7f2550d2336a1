import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The simulated app's threads (issue 15): blocking that lets the world run, the main thread's
/// watchdogs at their limits, deadlocks, A3.4, and the one-thread model kept for `concurrency` off.
@Suite struct SimulatedThreadsTests {
    /// Threads, but no preemption: the behaviour of blocking, deterministic and script-like.
    static var threadsNoPreemption: EnvironmentConfig {
        var environment = EnvironmentConfig.scripted
        environment.concurrency = ConcurrencySettings(strategy: .randomWalk, preemptionRates: 0...0)
        return environment
    }

    static var oneThread: EnvironmentConfig {
        var environment = EnvironmentConfig.scripted
        environment.concurrency = .off
        return environment
    }

    /// Home at 1 s (deadline 31 s); at 2 s a task is begun whose handler ends it, and `blocked`
    /// work of 60 s starts on the given queue.
    private static func blockedAcrossDeadline(onMain: Bool, environment: EnvironmentConfig) -> ScriptedDevice {
        let script = ScriptedDevice(environment: environment)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.home() }
        script.at(.seconds(2)) { script in
            script.begin("upload", onExpiry: .end)
            let app = script.app
            let queue = onMain ? app.mainQueue : app.backgroundQueue
            queue.async { app.performBlockingWork(for: .seconds(60)) }
        }
        script.run(until: .seconds(120))
        return script
    }

    @Test("A7.1: a main thread blocked across the deadline is killed at the deadline, not when it unblocks")
    func mainBlockedAcrossDeadline() throws {
        let script = Self.blockedAcrossDeadline(onMain: true, environment: Self.threadsNoPreemption)
        let deadline = try #require(script.deadlines.first)
        let kill = try #require(script.terminations.first)
        #expect(kill.time == deadline, "killed at \(kill.time), deadline \(deadline)")
        #expect(kill.value.exceptionCode == "0x8badf00d")
        #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 1)).isEmpty, "the blocked main thread never ran the handler")

        let before = Self.blockedAcrossDeadline(onMain: true, environment: Self.oneThread)
        let oldKill = try #require(before.terminations.first)
        #expect(oldKill.time > deadline, "the one-thread model kills only when the work returns")
    }

    @Test("a worker blocked across the deadline does not stop the expiration handler on main")
    func workerBlockedAcrossDeadline() {
        let script = Self.blockedAcrossDeadline(onMain: false, environment: Self.threadsNoPreemption)
        #expect(script.terminations.isEmpty)
        #expect(script.handlerCalls(BackgroundTaskIdentifier(rawValue: 1)).count == 1)
        #expect(script.states.last == .suspended)
    }

    @Test("A10.1: applicationDidEnterBackground blocking past its limit is killed at the limit")
    func didEnterBackgroundKilledAtItsLimit() throws {
        let hooks = ScriptedHooks()
        let observations = Box<[LifecycleObservation]>([])
        hooks.didFinishLaunching = { context in
            let app = context.application
            observations.value.append(context.onDidEnterBackground { app.performBlockingWork(for: .seconds(20)) })
        }
        let script = ScriptedDevice(environment: Self.threadsNoPreemption, hooks: hooks)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.home() }
        script.run(until: .seconds(60))
        let kill = try #require(script.terminations.first)
        #expect(kill.time == .seconds(6) + .microseconds(1), "killed at \(kill.time)")
        #expect("\(kill.value)".contains("A10.1"))
    }

    @Test("sync onto the main queue from the expiration handler on main is a deadlock naming the main thread")
    func mainSyncFromHandlerDeadlocks() throws {
        let script = ScriptedDevice(environment: Self.threadsNoPreemption)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.home() }
        script.at(.seconds(2)) { script in
            let app = script.app
            let box = Box(BackgroundTaskIdentifier.invalid)
            box.value = app.beginBackgroundTask(withName: "save") {
                _ = (app.mainQueue as? SimulatedWorkQueue)?.sync { 0 }  // deadlock: already on main
                app.endBackgroundTask(box.value)
            }
        }
        script.run(until: .seconds(120))
        let report = try #require(script.device.scheduler.deadlock)
        #expect(report.description.contains(#"thread "p1.main" waits for sync on queue "p1.main" (itself)"#),
                "\(report)")
    }

    @Test("GCD: a sync onto a free serial queue runs on the calling thread, so main-only helpers inside it do not deadlock")
    func syncOntoFreeQueueRunsOnCaller() throws {
        let script = ScriptedDevice(environment: Self.threadsNoPreemption)
        let seen = Box<[String]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            let app = script.app
            guard let main = app.mainQueue as? SimulatedWorkQueue,
                  let db = app.makeSerialQueue(label: "db") as? SimulatedWorkQueue
            else { return }
            // A helper that hops to main unless already there, called inside db.sync from main.
            let onMain: @Sendable (@escaping @Sendable () -> Void) -> Void = { body in
                if app.isMainThread { body() } else { main.sync(body) }
            }
            main.async {
                db.sync {
                    seen.value.append(app.isMainThread ? "db block on main" : "db block off main")
                    onMain { seen.value.append("helper ran") }
                }
            }
        }
        script.run(until: .seconds(10))
        #expect(script.device.scheduler.deadlock == nil, "\(String(describing: script.device.scheduler.deadlock))")
        #expect(seen.value == ["db block on main", "helper ran"])
    }

    @Test("the no-deadlock invariant reports a deadlocked run, and a run without one holds it")
    func noDeadlockInvariant() {
        final class Deadlocking: Workload, @unchecked Sendable {
            let deadlocks: Bool
            var observation: LifecycleObservation?
            init(deadlocks: Bool) { self.deadlocks = deadlocks }
            func didFinishLaunching(_ context: WorkloadContext) {
                let app = context.application
                let deadlocks = self.deadlocks
                observation = context.onDidEnterBackground {
                    let main = app.mainQueue as? SimulatedWorkQueue
                    let background = app.backgroundQueue as? SimulatedWorkQueue
                    _ = (deadlocks ? main : background)?.sync { 0 }
                }
            }
        }
        for deadlocks in [true, false] {
            let report = WorkloadCampaign(
                workload: WorkloadInfo(name: "sync", summary: "") { Deadlocking(deadlocks: deadlocks) }, runs: 20
            ).run()
            #expect(report.failures.contains { $0.invariant == "no-deadlock" } == deadlocks, "\(report)")
        }
    }

    @Test("A3.4: a begin after the budget is spent can see its handler run on main before it returns")
    func handlerBeforeBeginReturns() {
        var environment = EnvironmentConfig.scripted
        environment.concurrency = ConcurrencySettings(strategy: .randomWalk, preemptionRates: 1...1, maxDelay: .zero)
        var sawInvalid = 0
        var sawID = 0
        for seed in 0..<40 {
            let script = ScriptedDevice(environment: environment, choices: ChoiceSource(seed: Seed(UInt64(seed))))
            let seen = Box<[BackgroundTaskIdentifier]>([])
            script.at(.zero) { $0.launch() }
            script.at(.seconds(1)) { script in
                script.home()
                let app = script.app
                // Holds the app past the callout at 27 s and ends at 29 s: the budget is spent then.
                let first = Box(BackgroundTaskIdentifier.invalid)
                first.value = app.beginBackgroundTask(withName: "first") {
                    app.backgroundQueue.asyncAfter(.seconds(2)) { app.endBackgroundTask(first.value) }
                }
            }
            script.at(.seconds(28)) { script in
                let app = script.app
                app.backgroundQueue.async {
                    let stored = Box(BackgroundTaskIdentifier.invalid)
                    stored.value = app.beginBackgroundTask(withName: "late") {
                        seen.value.append(stored.value)  // .invalid if the handler ran before begin returned
                        app.endBackgroundTask(stored.value)
                    }
                }
            }
            script.run(until: .seconds(60))
            for id in seen.value { if id == .invalid { sawInvalid += 1 } else { sawID += 1 } }
        }
        #expect(sawInvalid > 0, "the handler never ran before begin returned")
        #expect(sawID > 0, "the handler never ran after begin returned")
    }

    @Test("BackgroundTaskKit's correct helpers pass under preemption at every host call, random walk and PCT")
    func coreHelpersPassUnderHeavyPreemption() {
        let heavy: [ConcurrencySettings] = [
            ConcurrencySettings(strategy: .randomWalk, preemptionRates: 0.5...1),
            ConcurrencySettings(strategy: .pct, pctDepths: 2...3, pctStepBound: 300),
        ]
        // token, background queue, in-flight tracker, BGTaskScheduler wrapper
        for workload in ["token", "background-queue", "download-manager", "bg-scheduler-app"] {
            let variant = WorkloadCatalog.variant(workload: workload, variant: "correct")!
            for settings in heavy {
                var environment = EnvironmentConfig()
                environment.concurrency = settings
                let report = WorkloadCampaign(workload: variant.info, environment: environment, runs: 60).run()
                #expect(report.passed, "\(workload) with \(settings.strategy): \(report)")
            }
        }
    }

    @Test("with concurrency off a campaign gives the digest it gave before threads existed")
    func oneThreadModelKeepsItsDigest() {
        var environment = EnvironmentConfig()
        environment.concurrency = .off
        let variant = WorkloadCatalog.variant(workload: "token", variant: "correct")!
        var campaign = WorkloadCampaign(workload: variant.info, environment: environment, runs: 300,
                                        seed: Seed(0xc000000000000001))
        campaign.strategy = .random  // the pinned digest is of a random campaign, from before `default`
        let report = campaign.run()
        #expect(report.passed)
        #expect("\(report.result.totals.digest.digest)" == Self.oneThreadDigest)
    }

    /// `bgsim fuzz` of token-correct-ios17 (300 runs, seed 0xc000000000000001) with
    /// `"concurrency": {"enabled": false}`, as computed before simulated threads existed
    /// (`ddaff6eb3a219089`), then re-pinned when issue 19 changed what jetsam and force-quit do
    /// (a memory warning drawn before a jetsam, `willTerminate` for a force-quit running app).
    static let oneThreadDigest = "729657808a095507"
}
