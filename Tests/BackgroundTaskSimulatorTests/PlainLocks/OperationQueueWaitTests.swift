import BackgroundTaskKit
import BackgroundTaskSimulator
import BackgroundTaskSimulatorTesting
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// `OperationQueue.waitUntilAllOperationsAreFinished()` with operations that have completion
/// blocks, as an export written with `Operation`s does it. Linux Foundation polls the queue's list
/// there: an operation is finished (its waiters woken) a little before its queue takes it off the
/// list, and its completion block is sent to a global queue in between, a point where the
/// finishing thread may be preempted. The waiter then spun on the list with no scheduling point
/// and every run that reached that order hung (`no-hang` against correct code; on a device the
/// finishing thread runs on another core). The shim now sees the loop's lock as a poll point
/// (foundation_polls.c): a poll with nothing changed in the run sleeps a little virtual time.
/// Once that let the runs go on, a second hang showed: a process killed while its thread held
/// the queue's lock (`addOperation` dispatches under it) had that thread resumed to give the lock
/// back, which then polled for operations of a dead process for ever; such a thread now stops
/// when it holds nothing (``ThreadController/stopsInertRun(of:in:)``).
@Suite(.enabled(if: Scheduler.tracksPlainLocks && VirtualClocks.isSupported))
struct OperationQueueWaitTests {
    static func campaign(_ variant: OperationExport.Variant, runs: Int) -> WorkloadCampaign {
        WorkloadCampaign(
            workload: WorkloadInfo(name: "operation-export/\(variant)", summary: "exports with Operations on leaving") {
                OperationExport(variant: variant)
            },
            runs: runs, seed: Seed(0x0be7a))
    }

    @Test("waiting for operations with completion blocks holds in every run (each hung before), in test processes")
    func waitingForOperationsHolds() throws {
        // Without the poll point a run hangs: in test processes, a no-hang finding of this test.
        try TwinCampaignChecks.expectHoldsInTestProcesses(Self.campaign(.waitsForOperations, runs: 300))
    }

    @Test("the twin that ends its task without waiting for its operations is found (background-work-held)")
    func endingBeforeTheOperationsIsFound() {
        TwinCampaignChecks.expectFound("background-work-held", by: Self.campaign(.endsWithoutWaiting, runs: 200).run())
    }

    @Test("a run that polls replays to the same digest")
    func pollingRunsReplay() {
        let campaign = Self.campaign(.waitsForOperations, runs: 40)
        let report = campaign.run()
        let again = campaign.run()
        #expect(report.result.totals == again.result.totals, "the same runs, events and digest")
    }
}

/// Exports a batch with `Operation`s when the app leaves the foreground: three operations, each
/// with a completion block that counts it, added from a global-queue block that holds a
/// background task, waits for them all, and ends the task. The buggy twin ends the task as soon
/// as the operations are queued (it forgot to wait): they run on with no task held.
final class OperationExport: Workload, @unchecked Sendable {
    enum Variant: String, CustomStringConvertible {
        case waitsForOperations
        case endsWithoutWaiting
        var description: String { rawValue }
    }

    private let variant: Variant
    private let queue = OperationQueue()
    private let lock = NSLock()
    private var exported = 0  // under `lock`
    private var observation: LifecycleObservation?

    init(variant: Variant) { self.variant = variant }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let task = BackgroundTaskToken(name: "export", host: app)
            DispatchQueue.global().async { [self] in
                for index in 0..<3 {
                    let work = context.startWork("export-\(index)")
                    let operation = BlockOperation { work.finish() }
                    operation.completionBlock = { [self] in lock.withLock { exported += 1 } }
                    queue.addOperation(operation)
                }
                if variant == .waitsForOperations { queue.waitUntilAllOperationsAreFinished() }
                task.invalidate()
            }
        }
    }
}
