import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Operations of one `OperationQueue`, as apps write them. Inside a run the queue under an
/// `OperationQueue` runs one block at a time (Linux Foundation frees a cancelled operation other
/// operations still point to when they run at once), and it counted as a serial queue: two
/// operations that may run at once on a device (`maxConcurrentOperationCount` 4) were ordered
/// for the data-race detector, and a counter each bumped with no lock was never reported (0 of
/// 300 runs, found by a probe of app code). The queue now orders none of its blocks; what the
/// `OperationQueue` itself orders (one operation at a time, a dependency) still holds.
@Suite("OperationQueue operations", .enabled(if: VirtualClocks.isSupported && Scheduler.tracksPlainLocks))
struct OperationQueueRaceTests {
    static func campaign(_ shape: ImportShape) -> WorkloadCampaign {
        WorkloadCampaign(
            workload: WorkloadInfo(name: "imports/\(shape)", summary: "contacts imported by operations", sharesState: true) {
                ContactImport(shape: shape)
            },
            runs: 300, seed: Seed(0x0be4_a710))
    }

    @Test("four operations at once bumping one counter with no lock race")
    func parallelOperationsRace() throws {
        let report = Self.campaign(.parallelUnguarded).run()
        let race = try #require(report.failures.first { $0.invariant == "no-data-race" }, "\(report)")
        #expect(race.message.contains("'ParallelTally.counted'"), "\(race.message)")
        #expect(report.result.totals.failed > 250, "\(report)")
        // Foundation names the queue "NSOperationQueue 0x…" by the object's address, which
        // differs from rerun to rerun: the threads are named by the queue's number instead.
        #expect(race.message.contains(".NSOperationQueue #1 (job"), "\(race.message)")
        #expect(report.result.nondeterminism.isEmpty, "\(report.result.nondeterminism)")
    }

    @Test("a queue label's object address becomes the queue's number; other hex stays")
    func labelsWithoutAddresses() {
        #expect(SimulatedApplication.withoutAddresses("NSOperationQueue 0x00007f8278018a20", number: 3)
                == "NSOperationQueue #3")
        #expect(SimulatedApplication.withoutAddresses("com.example.cache.0x7f82a0c0 (thumbs)", number: 1)
                == "com.example.cache.#1 (thumbs)")
        #expect(SimulatedApplication.withoutAddresses("decoder 0xff", number: 2) == "decoder 0xff")
        #expect(SimulatedApplication.withoutAddresses("com.example.sync", number: 4) == "com.example.sync")
    }

    @Test("the counter behind a lock, one operation at a time, or bumped by the operation that depends on the others holds",
          arguments: [ImportShape.parallelLocked, .serialUnguarded, .dependencyTotals])
    func orderedOperationsHold(_ shape: ImportShape) {
        let report = Self.campaign(shape).run()
        #expect(report.passed, "\(report)")
    }
}

/// How an import's operations run and keep their count.
enum ImportShape: Sendable {
    /// Four at once, the count bumped with no lock (the bug).
    case parallelUnguarded
    /// Four at once, the count behind an `NSLock`.
    case parallelLocked
    /// One at a time (`maxConcurrentOperationCount` 1), the count bumped with no lock.
    case serialUnguarded
    /// Four at once, a slot each, summed by the operation that depends on them all.
    case dependencyTotals

    var keeping: ParallelTally.Keeping {
        switch self {
        case .parallelUnguarded, .serialUnguarded: .unguarded
        case .parallelLocked: .locked
        case .dependencyTotals: .slots
        }
    }
}

/// On every background entry, under a background task, imports a drawn number of contact pages
/// with operations on the app's `OperationQueue`, then ends the task in an operation that
/// depends on all of them.
private final class ContactImport: Workload, @unchecked Sendable {
    // @unchecked: `observation` is touched on the main queue only; the queue is thread-safe.
    private let shape: ImportShape
    private let queue = OperationQueue()
    private var observation: LifecycleObservation?

    init(shape: ImportShape) {
        self.shape = shape
        queue.maxConcurrentOperationCount = shape == .serialUnguarded ? 1 : 4
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let shape = shape
        let queue = queue
        observation = context.onDidEnterBackground {
            let token = BackgroundTaskToken(name: "import", host: app)
            let pages = context.drawInt(in: 2...5)
            let work = context.startWork("import")
            let tally = ParallelTally(keeping: shape.keeping, pieces: pages)
            let done = BlockOperation {
                precondition(tally.total() == 10 * pages)
                work.finish()
                token.invalidate()
            }
            for page in 0..<pages {
                let operation = BlockOperation { tally.record(page, amount: 10) }
                done.addDependency(operation)
                queue.addOperation(operation)
            }
            queue.addOperation(done)
        }
    }
}
