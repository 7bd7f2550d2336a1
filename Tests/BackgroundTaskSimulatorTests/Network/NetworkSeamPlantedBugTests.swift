import BackgroundTaskKit
import BackgroundTaskNetwork
import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// App code as a team writes it against `URLSession`: the outbox is sent on each background entry
/// under a task token; a failed send keeps the messages for the next entry. The planted bug counts
/// a lost connection as sent ("the server probably got it"), which Apple QA1941 says it may not.
final class NetworkOutbox: @unchecked Sendable {
    // @unchecked: every property is touched on the host's main queue only.
    private let session: any NetworkSession
    private let host: any ApplicationHost
    private let countsLostConnectionAsSent: Bool
    private var pending = 0
    private var sending: (any NetworkSessionTask)?
    /// Called on the main queue when a send ends, with whether the messages count as sent.
    var onSendEnded: (Bool) -> Void = { _ in }

    init(session: any NetworkSession, host: any ApplicationHost, countsLostConnectionAsSent: Bool) {
        self.session = session
        self.host = host
        self.countsLostConnectionAsSent = countsLostConnectionAsSent
    }

    func write() { pending += 1 }

    func send() {
        guard pending > 0, sending == nil else { return }
        let token = BackgroundTaskToken(name: "send-outbox", host: host) { [self] in sending?.cancel() }
        guard token.isRunning else { return }  // refused: the next background entry retries
        var request = URLRequest(url: URL(string: "https://mail.example.com/outbox")!)
        request.httpMethod = "POST"
        let count = pending
        let task = session.uploadTask(with: request, from: Data(count: count)) { [self] _, _, error in
            host.mainQueue.async { [self] in
                let lost = (error as? URLError)?.code == .networkConnectionLost
                let sent = error == nil || (lost && countsLostConnectionAsSent)  // the bug when true
                if sent { pending -= min(count, pending) }
                sending = nil
                onSendEnded(sent)
                token.invalidate()
            }
        }
        sending = task
        task.resume()
    }
}

/// The harness side: the user writes while the app is active; each send is a declared work item
/// the harness finishes when the app counts it sent, so `request-failure-handled` judges that.
final class NetworkOutboxWorkload: Workload, @unchecked Sendable {
    // @unchecked: set on the simulated main thread only.
    private let countsLostConnectionAsSent: Bool
    private var observation: LifecycleObservation?
    private var work: WorkItem?

    init(countsLostConnectionAsSent: Bool) {
        self.countsLostConnectionAsSent = countsLostConnectionAsSent
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let session = context.makeURLSession(work: .servedBy { [unowned self] _ in
            work = context.startWork("send-outbox")
            return work
        })
        let outbox = NetworkOutbox(session: session, host: context.application,
                                  countsLostConnectionAsSent: countsLostConnectionAsSent)
        outbox.onSendEnded = { [unowned self] sent in
            if sent { work?.finish() } else { work?.cancel() }
        }
        observation = context.application.addLifecycleObserver { event in
            switch event {
            case .didBecomeActive: if context.draw(probability: 0.7) { outbox.write() }
            case .didEnterBackground: outbox.send()
            default: break
            }
        }
    }
}

@Suite struct NetworkSeamPlantedBugTests {
    static func workload(countsLostConnectionAsSent bug: Bool) -> WorkloadInfo {
        WorkloadInfo(name: bug ? "outbox-sender/lost-counted-as-sent" : "outbox-sender/correct",
                     summary: "sends the outbox through a NetworkSession") {
            NetworkOutboxWorkload(countsLostConnectionAsSent: bug)
        }
    }

    @Test("a lost connection counted as sent is found as request-failure-handled, and the seed replays")
    func plantedBugIsFound() throws {
        let campaign = WorkloadCampaign(workload: Self.workload(countsLostConnectionAsSent: true), runs: 300)
        let report = campaign.run()
        let failure = try #require(report.failures.first { $0.invariant == "request-failure-handled" }, "\(report)")
        #expect(failure.message.contains("networkConnectionLost"), "\(failure.message)")
        #expect(campaign.replay(seed: failure.seed).firstViolation(of: "request-failure-handled") != nil)
    }

    @Test("the correct outbox holds every invariant over the same runs")
    func correctTwinHolds() {
        let report = WorkloadCampaign(workload: Self.workload(countsLostConnectionAsSent: false), runs: 300).run()
        #expect(report.passed, "\(report)")
    }

    @Test("the same seed gives the same digest, run after run")
    func deterministic() {
        let spec = WorkloadCampaign(workload: Self.workload(countsLostConnectionAsSent: false)).spec
        for index in 0..<20 {
            let seed = Seed(0x35).derive(index: UInt64(index))
            let first = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
            let again = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
            #expect(first.digest == again.digest, "seed: \(seed)")
        }
    }
}
