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
    static func campaign(_ tally: ParallelTally.Keeping) -> WorkloadCampaign {
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
        #expect(race.message.contains("'ParallelTally.counted'"), "\(race.message)")
        // Every background entry renders two or more: each run that reached one races.
        #expect(report.result.totals.failed > 250, "\(report)")
    }

    @Test("the tally behind an NSLock, or one slot per iteration summed after the call, holds every invariant",
          arguments: [ParallelTally.Keeping.locked, .slots])
    func guardedTallyHolds(_ tally: ParallelTally.Keeping) {
        let report = Self.campaign(tally).run()
        #expect(report.passed, "\(report)")
    }
}

/// On every background entry, under a background task, renders a drawn number of thumbnails in
/// parallel with `concurrentPerform` on a global queue, tallying them, and ends the task.
private final class ThumbnailBatch: Workload, @unchecked Sendable {
    // @unchecked: `observation` is touched on the main queue only.
    private let tallying: ParallelTally.Keeping
    private var observation: LifecycleObservation?

    init(tallying: ParallelTally.Keeping) { self.tallying = tallying }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let tallying = tallying
        observation = context.onDidEnterBackground {
            let token = BackgroundTaskToken(name: "thumbnails", host: app)
            let count = context.drawInt(in: 2...6)
            let work = context.startWork("thumbnails")
            DispatchQueue.global().async {
                let tally = ParallelTally(keeping: tallying, pieces: count)
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    tally.record(index, amount: 1)
                }
                precondition(tally.total() == count)
                work.finish()
                token.invalidate()
            }
        }
    }
}
