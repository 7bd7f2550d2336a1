import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationRuntimeShims
import Testing

/// App code that iterates a `Set` (the open background tasks, ended all at once when time runs
/// out) replays the same way in every run and process. Swift seeds a `Set`'s order from a random
/// per-process seed and from the table's address; the campaign's own rerun of a run then took
/// another order, and correct code was reported as NONDETERMINISM ("reads real time, real
/// threads or global state", none of which it did). Every binary that links the simulator now
/// hashes deterministically (SimulationRuntimeShims, deterministic_hashing.c).
@Suite("A Set iterated by app code")
struct SetIterationTests {
    @Test("the process hashes deterministically, as SWIFT_DETERMINISTIC_HASHING=1 makes it")
    func hashingIsDeterministic() {
        #expect(bgsim_hashing_is_deterministic() == 1)
    }

    @Test("an expiration handler that ends every open task in Set order holds every invariant and replays")
    func setOrderReplays() {
        let campaign = WorkloadCampaign(
            workload: WorkloadInfo(name: "log-shipper/correct", summary: "ends its open tasks in Set order") {
                OpenTaskSet()
            },
            runs: 100, seed: Seed(0x5e7))
        let report = campaign.run()
        #expect(report.result.nondeterminism.isEmpty, "\(report.result.nondeterminism)")
        #expect(report.passed, "\(report.failures.map { "\($0.invariant): \($0.message)" })")
        let again = campaign.run()
        #expect(again.result.totals.digest == report.result.totals.digest)
    }
}

/// Ships logs on every background entry under a task of its own, several at a time, and keeps the
/// open tasks in a `Set`; when time runs out the expiration handler ends every open task, in the
/// order the `Set` gives, cancelling each one's shipping first. All of it on the main queue.
private final class OpenTaskSet: Workload, @unchecked Sendable {
    // @unchecked: `open` is touched on the main queue only.
    private var open: Set<BackgroundTaskIdentifier> = []
    private var shipping: [BackgroundTaskIdentifier: WorkItem] = [:]
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = app.addLifecycleObserver { [self] event in
            guard event == .didEnterBackground else { return }
            for batch in 0..<context.drawInt(in: 1...4) {
                let id = app.beginBackgroundTask(withName: "ship-logs-\(batch)") { [self] in
                    for task in open {
                        shipping.removeValue(forKey: task)?.cancel()
                        app.endBackgroundTask(task)
                    }
                    open.removeAll()
                }
                guard id != .invalid else { continue }
                open.insert(id)
                shipping[id] = context.startWork("ship-logs-\(batch)")
                app.mainQueue.asyncAfter(context.drawWorkDuration()) { [self] in
                    guard open.remove(id) != nil else { return }  // expired meanwhile
                    shipping.removeValue(forKey: id)?.finish()
                    app.endBackgroundTask(id)
                }
            }
        }
    }
}
