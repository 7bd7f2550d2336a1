import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// BackgroundTaskKit's synchronisation seams under simulation: app code that takes
/// `host.makeLock`, `host.makeSemaphore`, `host.makeShared` and `queue.sync` runs unchanged on
/// simulated threads, deterministically, and a shared variable's reads and writes interleave.
@Suite struct HostSeamsSimulationTests {
    /// Simulated threads with frequent preemption and no delays.
    static var preempting: EnvironmentConfig {
        var environment = EnvironmentConfig.scripted
        environment.concurrency = ConcurrencySettings(strategy: .randomWalk, preemptionRates: 0.3...0.3, maxDelay: .zero)
        return environment
    }

    /// Two background threads each add 1 to a shared counter three times, with a plain
    /// read-then-write (`counter.value += 1`) or holding a host lock; a third thread waits for
    /// both on a host semaphore and reads the total.
    private static func counterTotal(seed: UInt64, locked: Bool) -> Int? {
        let script = ScriptedDevice(environment: preempting, choices: ChoiceSource(seed: Seed(seed)))
        let total = Box<Int?>(nil)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            let host: any ExecutionHost = script.app  // app code sees only BackgroundTaskKit
            let counter = host.makeShared(name: "counter", initialValue: 0)
            let lock = host.makeLock(name: "counter")
            let done = host.makeSemaphore(name: "adders done", value: 0)
            for _ in 0..<2 {
                host.backgroundQueue.async {
                    for _ in 0..<3 {
                        if locked { lock.withLock { counter.value += 1 } } else { counter.value += 1 }
                    }
                    done.signal()
                }
            }
            host.backgroundQueue.async {
                done.wait()
                done.wait()
                total.value = lock.withLock { counter.value }
            }
        }
        script.run(until: .seconds(10))
        #expect(script.device.scheduler.deadlock == nil)
        return total.value
    }

    @Test("a shared counter's read and write are scheduling points: two threads lose an update in some seed, never with the host's lock")
    func sharedCounterLosesUpdatesWithoutTheLock() {
        var lostSeeds: [UInt64] = []
        for seed in UInt64(0)..<300 {
            let plain = Self.counterTotal(seed: seed, locked: false)
            #expect(plain != nil, "seed: \(seed): the waiting thread never read the total")
            if let plain, plain < 6 { lostSeeds.append(seed) }
            #expect(Self.counterTotal(seed: seed, locked: true) == 6, "seed: \(seed): an update lost under the lock")
        }
        #expect(!lostSeeds.isEmpty, "no seed in 0..<300 interleaved the read and the write of the shared counter")
    }

    @Test("a sync from the main thread onto the main queue through the WorkQueue protocol stops the run with no-deadlock")
    func protocolSyncDeadlocks() throws {
        let script = ScriptedDevice(environment: Self.preempting, choices: ChoiceSource(seed: Seed(1)))
        let after = Box(0)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            let main: any WorkQueue = script.app.mainQueue
            main.async { after.value = main.sync { 1 } }
        }
        script.run(until: .seconds(10))
        let report = try #require(script.device.scheduler.deadlock)
        #expect(report.description.contains(#"waits for sync on queue "p1.main" (itself)"#), "\(report)")
        #expect(after.value == 0, "the deadlocked sync returned during the run")
    }

    @Test("an uploader written against BackgroundTaskKit's seams alone passes, and the same seed gives the same digest")
    func seamsUploaderIsDeterministic() {
        let info = WorkloadInfo(name: "seams-uploader", summary: "lock, semaphore, sync and shared state through the host") {
            SeamsUploader()
        }
        let first = WorkloadCampaign(workload: info, runs: 40, seed: Seed(0x5ea5)).run()
        let second = WorkloadCampaign(workload: info, runs: 40, seed: Seed(0x5ea5)).run()
        #expect(first.passed, "\(first)")
        #expect("\(first.result.totals.digest.digest)" == "\(second.result.totals.digest.digest)")
    }
}

/// An uploader that synchronises only through BackgroundTaskKit (no engine import in spirit):
/// two uploads on the background queue count into a locked shared total, a semaphore waits for
/// both, a `sync` onto the database queue saves the total, and a token holds the app meanwhile.
private final class SeamsUploader: Workload, @unchecked Sendable {
    // @unchecked: `observation` is set once, at launch, on main.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let host = context.host
        let db = host.makeSerialQueue(label: "db")
        let lock = host.makeLock(name: "uploaded")
        let done = host.makeSemaphore(name: "uploads done", value: 0)
        let uploaded = host.makeShared(name: "uploaded", initialValue: 0)
        let saved = host.makeShared(name: "saved", initialValue: 0)
        observation = context.onDidEnterBackground {
            let work = context.startWork("upload")
            let token = BackgroundTaskToken(name: "upload", host: host) { work.cancel() }
            host.backgroundQueue.async {
                for _ in 0..<2 {
                    host.backgroundQueue.async {
                        lock.withLock { uploaded.value += 1 }
                        done.signal()
                    }
                }
                done.wait()
                done.wait()
                db.sync { saved.value = lock.withLock { uploaded.value } }
                host.schedulingPoint()
                work.finish()
                token.invalidate()
            }
        }
    }

    @Test("an expiration-style timed wait through the host seam: in virtual time, the upload in time or not")
    func timedWaitThroughTheSeam() {
        for (uploadSeconds, expected) in [(1, "uploaded@1"), (5, "gave up@2")] {
            let script = ScriptedDevice(environment: .scripted, choices: ChoiceSource(seed: Seed(7)))
            let outcome = Box<String?>(nil)
            script.at(.zero) { $0.launch() }
            script.at(.seconds(1)) { script in
                let host: any ExecutionHost = script.app
                let done = host.makeSemaphore(name: "upload done", value: 0)
                let started = script.device.scheduler.now
                host.backgroundQueue.async {
                    host.backgroundQueue.async {
                        script.device.scheduler.block(for: .seconds(Int64(uploadSeconds)))
                        done.signal()
                    }
                    let uploaded = done.wait(timeout: .seconds(2))
                    let waited = (script.device.scheduler.now.microseconds - started.microseconds) / 1_000_000
                    outcome.value = "\(uploaded ? "uploaded" : "gave up")@\(waited)"
                }
            }
            script.run(until: .seconds(10))
            #expect(outcome.value == expected, "upload of \(uploadSeconds) s")
            #expect(script.device.scheduler.deadlock == nil)
        }
    }
}
