import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Synchronization
import Testing

/// The workloads written as apps write them (Workloads/PlainAsync: real `@MainActor`,
/// `MainActor.run`, `Task {}`, `Task.sleep`, no simulator types in the app's code): each planted
/// bug is found for its reason and its correct twin holds that invariant on the same seeds; the
/// app-side code uses no simulator types; parallel campaigns in one process agree.
@Suite struct PlainAsyncWorkloadTests {
    /// Each planted bug, the invariant it must trip, and its correct twin.
    static let pairs: [(invariant: String, planted: String, correct: String)] = [
        ("no-double-end", "main-actor-uploader/ends-again-after-expiry", "main-actor-uploader/correct"),
        ("background-work-held", "sleep-retry/sleep-swallows-cancellation", "sleep-retry/correct"),
        ("background-work-held", "unstructured-task/fire-and-forget-thumbnails", "unstructured-task/correct"),
        ("background-work-held", "main-actor-model-cancel/saves-progress-after-end", "main-actor-model-cancel/correct"),
        ("expiry-ends-task", "main-actor-model-cancel/handler-only-cancels", "main-actor-model-cancel/correct"),
        ("background-work-held", "refresh-never-cancelled/expiry-never-cancels-task", "refresh-never-cancelled/correct"),
    ]

    @Test("the planted bug trips its invariant and the correct twin holds it", arguments: pairs.map(\.planted))
    func plantedBugIsFoundAndTwinHolds(planted: String) throws {
        let pair = try #require(Self.pairs.first { $0.planted == planted })
        let entry = try #require(WorkloadCatalog.all.first { $0.info.name == planted })
        #expect(entry.expectedViolation == pair.invariant)
        #expect(entry.info.usesAsync)
        #expect(try InvariantCanFailTests.violations(of: pair.invariant, in: pair.planted, runs: 60) > 0,
                "\(pair.planted) must trip \(pair.invariant)")
        #expect(try InvariantCanFailTests.violations(of: pair.invariant, in: pair.correct, runs: 60) == 0,
                "\(pair.correct) must hold \(pair.invariant)")
    }

    static let sources: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Sources/BackgroundTaskSimulator/Workloads/PlainAsync").path
    }()

    /// The families' files (the services file holds protocols and their simulated
    /// implementations, all harness side).
    static let families = ["MainActorUploader.swift", "SleepRetry.swift", "UnstructuredTaskOutlivesToken.swift",
                           "MainActorModelCancel.swift", "RefreshNeverCancelled.swift"]

    @Test("the app-side code uses plain Swift concurrency and no simulator types",
          arguments: families)
    func appSideIsPlain(file: String) throws {
        let text = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8)
        // The harness side is MainActorAppWorkload and the catalogue, or the file's last type.
        let appSide = try #require(text.components(separatedBy: "/// The harness side").first)
        for banned in ["SimulatedMainActor", "WorkloadContext", "context.", "taskExecutor", "@unchecked",
                       "import DeterministicSimulation", "Simulated"] {
            #expect(!appSide.contains(banned), "\(file)'s app-side code uses \(banned)")
        }
        #expect(appSide.contains("Task"), "\(file)'s app-side code starts no Task")
    }

    /// The per-run digests of a campaign of `runs` runs of `workload` on iOS 17.
    static func campaign(_ workload: String, runs: Int) throws -> [TraceDigest] {
        let entry = try #require(WorkloadCatalog.all.first { $0.info.name == workload })
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                           invariants: Invariant.all, horizon: .seconds(1_800))
        return (0..<runs).map { index in
            SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(0x33d6).derive(index: UInt64(index)))).digest
        }
    }

    @Test("8 campaigns of @MainActor code with Task.sleep at once in one process give the digests of one alone")
    func parallelCampaignsAgree() throws {
        let workload = "sleep-retry/correct"  // @MainActor refresher, Task {}, Task.sleep backoff
        let alone = try Self.campaign(workload, runs: 12)
        let results = Mutex([[TraceDigest]?](repeating: nil, count: 8))
        let done = DispatchSemaphore(value: 0)
        for index in 0..<8 {
            // Real threads, so that the campaigns overlap whatever the size of Swift's pool.
            let thread = Thread {
                let digests = try? Self.campaign(workload, runs: 12)
                results.withLock { $0[index] = digests }
                done.signal()
            }
            thread.start()
        }
        for _ in 0..<8 { done.wait() }
        for (index, digests) in results.withLock({ $0 }).enumerated() {
            #expect(digests == alone, "campaign \(index) of 8")
        }
    }
}
