import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Parallel work with `DispatchQueue.concurrentPerform`, as apps write it. Inside a run the
/// iterations run one after another on the caller's thread (a schedule Dispatch may choose), and
/// the data-race detector took them for one thread's code: a counter every iteration bumped with
/// no lock was never reported (0 of 300 runs, found by a probe of app code). Each iteration is now
/// a step of one of four workers, after what the caller did before the call and before what it
/// does after, ordered with the other workers' iterations only by what they synchronize with.
@Suite("concurrentPerform iterations", .enabled(if: VirtualClocks.isSupported && Scheduler.tracksPlainLocks))
struct ConcurrentPerformRaceTests {
    static func campaign(_ tally: ThumbnailTally.Tallying) -> WorkloadCampaign {
        WorkloadCampaign(
            workload: WorkloadInfo(name: "thumbnails/\(tally)", summary: "parallel thumbnails, tallied", sharesState: true) {
                ThumbnailBatch(tallying: tally)
            },
            runs: 300, seed: Seed(0xc0c0_9e4f))
    }

    @Test("a tally every iteration bumps with no lock is a race between two iterations")
    func unguardedTallyRaces() throws {
        let report = Self.campaign(.unguarded).run()
        let race = try #require(report.failures.first { $0.invariant == "no-data-race" }, "\(report)")
        #expect(race.message.contains("concurrentPerform iteration"), "\(race.message)")
        #expect(race.message.contains("'ThumbnailTally.rendered'"), "\(race.message)")
        // Every background entry renders two or more: each run that reached one races.
        #expect(report.result.totals.failed > 250, "\(report)")
    }

    @Test("the tally behind an NSLock, or one result per iteration read after the call, holds every invariant",
          arguments: [ThumbnailTally.Tallying.locked, .perIteration])
    func guardedTallyHolds(_ tally: ThumbnailTally.Tallying) {
        let report = Self.campaign(tally).run()
        #expect(report.passed, "\(report)")
    }
}

/// What a batch of thumbnails counts.
final class ThumbnailTally: @unchecked Sendable {
    // @unchecked: `rendered` is guarded by `lock` (not in `.unguarded`); `sizes` has one slot per
    // iteration, each written by its iteration only, and read after the call.
    enum Tallying: Sendable { case unguarded, locked, perIteration }
    final class Slot: @unchecked Sendable {
        // @unchecked: written by one iteration, read after the call returned.
        var bytes = 0
    }

    let tallying: Tallying
    private let lock = NSLock()
    var rendered = 0
    let sizes: [Slot]

    init(tallying: Tallying, count: Int) {
        self.tallying = tallying
        sizes = (0..<count).map { _ in Slot() }
    }

    /// Iteration `index` rendered a thumbnail of `bytes` bytes.
    func record(_ index: Int, bytes: Int) {
        switch tallying {
        case .unguarded: rendered += 1
        case .locked: lock.withLock { rendered += 1 }
        case .perIteration: sizes[index].bytes = bytes
        }
    }

    /// After the call: how many were rendered.
    var total: Int {
        tallying == .perIteration ? sizes.filter { $0.bytes > 0 }.count : rendered
    }
}

/// On every background entry, under a background task, renders a drawn number of thumbnails in
/// parallel with `concurrentPerform` on a global queue, tallying them, and ends the task.
private final class ThumbnailBatch: Workload, @unchecked Sendable {
    // @unchecked: `observation` is touched on the main queue only.
    private let tallying: ThumbnailTally.Tallying
    private var observation: LifecycleObservation?

    init(tallying: ThumbnailTally.Tallying) { self.tallying = tallying }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let tallying = tallying
        observation = context.onDidEnterBackground {
            let token = BackgroundTaskToken(name: "thumbnails", host: app)
            let count = context.drawInt(in: 2...6)
            let work = context.startWork("thumbnails")
            DispatchQueue.global().async {
                let tally = ThumbnailTally(tallying: tallying, count: count)
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    tally.record(index, bytes: 1_024 * (index + 1))
                }
                precondition(tally.total == count)
                work.finish()
                token.invalidate()
            }
        }
    }
}
