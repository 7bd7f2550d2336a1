import BackgroundTaskKit
import BackgroundTaskSimulator
import BackgroundTaskSimulatorTesting
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// App code that starts a thread of its own (`Thread.detachNewThread`), as older code does: the
/// thread runs as a simulated thread of the process, beside the others, so its work and its
/// `DispatchQueue.main.async` stay inside the run. Before, the thread was a real one, outside the
/// run: its main-queue block went to the real main queue and ended the background task from
/// outside the run, at a wall-clock moment, and the engine, touched from two threads at once,
/// trapped in its own code (a job freed twice, an application used after its scheduler; probe 7's
/// H2), ending the test process.
@Suite(.enabled(if: Scheduler.tracksPlainLocks && VirtualClocks.isSupported))
struct AppThreadTests {
    static func campaign(_ variant: ThreadExporter.Variant, runs: Int) -> WorkloadCampaign {
        WorkloadCampaign(
            workload: WorkloadInfo(name: "thread-export/\(variant)", summary: "exports on a thread of its own") {
                ThreadExporter(variant: variant)
            },
            runs: runs, seed: Seed(0x7ead))
    }

    @Test("a detached thread's work and its hand-back to main stay in the run: 200 runs hold, in test processes")
    func detachedThreadHolds() throws {
        try TwinCampaignChecks.expectHoldsInTestProcesses(Self.campaign(.endsOnMainWhenDone, runs: 200))
    }

    @Test("the thread runs in the run: its sleep is virtual time and its work is seen")
    func threadRunsInTheRun() {
        let exporter = ThreadExporter(variant: .endsOnMainWhenDone)
        let outcome = RealDispatchTests.run("thread-export", seed: 3) { exporter }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        #expect(exporter.exports > 0, "the thread never ran in the run")
    }

    @Test("the twin that ends its task as the thread starts is found (background-work-held); runs replay")
    func endingAsTheThreadStartsIsFound() {
        let campaign = Self.campaign(.endsAtStart, runs: 100)
        let report = campaign.run()
        TwinCampaignChecks.expectFound("background-work-held", by: report)
        #expect(campaign.run().result.totals == report.result.totals, "the same runs, events and digest")
    }
}

/// Exports on a thread of its own when the app leaves the foreground: the thread works for two
/// seconds (`Thread.sleep`), then hands back to main, which ends the background task (its
/// expiration handler cancels the export). The buggy twin ends the task as soon as the thread is
/// started.
final class ThreadExporter: Workload, @unchecked Sendable {
    enum Variant: String, CustomStringConvertible {
        case endsOnMainWhenDone
        case endsAtStart
        var description: String { rawValue }
    }

    private let variant: Variant
    private var observation: LifecycleObservation?
    /// Exports the thread finished, for the test (read after the run).
    private(set) var exports = 0

    init(variant: Variant) { self.variant = variant }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let work = context.startWork("export")
            let task = BackgroundTaskToken(name: "export", host: app) { work.cancel() }
            Thread.detachNewThread { [self] in
                Thread.sleep(forTimeInterval: 2)
                DispatchQueue.main.async { [self] in
                    exports += 1
                    if !work.isDone { work.finish() }
                    if variant == .endsOnMainWhenDone { task.invalidate() }
                }
            }
            if variant == .endsAtStart { task.invalidate() }
        }
    }
}
