import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// The workloads that guard their state with real `NSLock`s and wait with real
/// `DispatchSemaphore`s, as SDKs write it (Workloads/PlainLocks): the correct SDK, whose flush
/// waits for its request with a semaphore and holds its lock across a blocking write while the
/// expiration handler waits for it, holds every invariant; each planted bug is found for its
/// reason; the app-side code uses Foundation's locks and Dispatch's semaphores and no simulator
/// types.
@Suite(.enabled(if: Scheduler.tracksPlainLocks))
struct PlainLockWorkloadTests {
    /// Each planted bug, the invariant it must trip and the runs that find it on the fixed seeds
    /// (the expiry must come during a flush: about one run in three).
    static let pairs: [(invariant: String, planted: String, runs: Int)] = [
        ("no-deadlock", "metrics-flush/lock-order-inversion", 60),
    ]

    @Test("the planted bug trips its invariant and the correct twin holds it", arguments: pairs.map(\.planted))
    func plantedBugIsFoundAndTwinHolds(planted: String) throws {
        let pair = try #require(Self.pairs.first { $0.planted == planted })
        let entry = try #require(WorkloadCatalog.all.first { $0.info.name == planted })
        #expect(entry.expectedViolation == pair.invariant)
        #expect(try InvariantCanFailTests.violations(of: pair.invariant, in: pair.planted, runs: pair.runs) > 0,
                "\(pair.planted) must trip \(pair.invariant)")
        #expect(try InvariantCanFailTests.violations(of: pair.invariant, in: "metrics-flush/correct", runs: pair.runs) == 0,
                "metrics-flush/correct must hold \(pair.invariant)")
    }

    @Test("the correct SDK holds every invariant in 300 runs, its lock contended by the expiration handler")
    func correctHoldsEverything() throws {
        let entry = try #require(WorkloadCatalog.all.first { $0.info.name == "metrics-flush/correct" })
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                           invariants: Invariant.all, horizon: .seconds(1_800))
        for index in 0..<300 {
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(0x9106).derive(index: UInt64(index))))
            #expect(outcome.violations.isEmpty, "run \(index): \(outcome.violations.map(\.message))")
        }
    }

    @Test("the deadlock is reported with both threads and both NSLocks")
    func deadlockNamesTheLocks() throws {
        let entry = try #require(WorkloadCatalog.all.first { $0.info.name == "metrics-flush/lock-order-inversion" })
        let spec = RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                           invariants: [try #require(Invariant.named("no-deadlock"))], horizon: .seconds(1_800))
        let found = (0..<60).lazy.compactMap { index -> Violation? in
            SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(0x1a7).derive(index: UInt64(index)))).violations.first
        }.first
        let message = try #require(found?.message)
        // Two threads, each waiting for the NSLock the other holds (numbered by when the waits
        // began); the report also names every other blocked thread, killed processes' included.
        let waits = message.components(separatedBy: #"waits for lock "NSLock or pthread mutex #"#).count - 1
        #expect(waits >= 2, "\(message)")
        #expect(message.contains(".main\" waits for lock"), "the expiration handler's thread: \(message)")
        #expect(message.contains(".global#1\" waits for lock"), "the flush's thread: \(message)")
    }

    @Test("the app-side code locks NSLocks and uses no simulator types")
    func appSideIsPlain() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        let file = url.appendingPathComponent("Sources/BackgroundTaskSimulator/Workloads/PlainLocks/MetricsFlusher.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let appSide = try #require(text.components(separatedBy: "/// The harness side").first)
        for banned in ["WorkloadContext", "context.", "Simulated", "import DeterministicSimulation", "import BackgroundTaskSimulator"] {
            #expect(!appSide.contains(banned), "the app-side code uses \(banned)")
        }
        #expect(appSide.contains("NSLock()"))
        #expect(appSide.contains("DispatchSemaphore(value: 0)"))
    }
}
