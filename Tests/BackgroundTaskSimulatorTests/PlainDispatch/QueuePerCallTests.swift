import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Testing

/// App code that makes a `DispatchQueue(label:)` for each job (a decoder queue per file) replays
/// exactly. The simulator maps an app's queue to a simulated queue by the address of Dispatch's
/// object, and Dispatch gives a new queue a freed one's memory as the allocator pleases: a queue
/// made per call sometimes found the route of an earlier, freed queue and sometimes got a new
/// simulated queue, so the same seed gave different traces in one process (a probe's campaign
/// reported NONDETERMINISM against deterministic code). A queue made in a run now drops any route
/// at its address (`BGSIM_DISPATCH_QUEUE_MADE`).
@Suite("A DispatchQueue made per call", .enabled(if: VirtualClocks.isSupported))
struct QueuePerCallTests {
    static let info = WorkloadInfo(name: "decoder-queues", summary: "a serial queue per file") { PerFileDecoder() }

    @Test("the same seed gives the same trace however often it is replayed in one process")
    func replaysExactly() {
        let campaign = WorkloadCampaign(workload: Self.info, runs: 100, seed: Seed(0xdec0_de))
        for index in 0..<12 {
            let seed = campaign.seed.derive(index: UInt64(index))
            let digests = (0..<5).map { _ in campaign.replay(seed: seed).digest }
            #expect(Set(digests).count == 1, "run seed \(seed): \(digests)")
        }
    }

    @Test("a campaign holds every invariant with no nondeterminism")
    func campaignHolds() {
        let report = WorkloadCampaign(workload: Self.info, runs: 300, seed: Seed(0xdec0_de)).run()
        #expect(report.passed, "\(report)")
    }
}

/// On every background entry, under a background task, decodes a drawn number of files, each on a
/// serial queue made for it; the task ends when every file is done.
private final class PerFileDecoder: Workload, @unchecked Sendable {
    // @unchecked: `observation` is touched on the main queue only.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = app.addLifecycleObserver { event in
            guard event == .didEnterBackground else { return }
            let token = BackgroundTaskToken(name: "decode", host: app)
            let group = DispatchGroup()
            for file in 0..<context.drawInt(in: 1...4) {
                let work = context.startWork("decode-\(file)")
                DispatchQueue(label: "com.example.decoder").async(group: group) {
                    work.finish()
                }
            }
            group.notify(queue: .main) { token.invalidate() }
        }
    }
}
