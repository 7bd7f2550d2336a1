import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// `BackgroundTaskToken.task` on the simulated iOS, as an app uses it: uploads that honour
/// cancellation hold every invariant through expiries, refused begins and preemption; uploads
/// through a callback API that cannot be cancelled run on after the expiry and are found.
@Suite("BackgroundTaskToken.task under simulation")
struct TokenTaskSimulationTests {
    static func report(honoursCancellation: Bool) -> WorkloadReport {
        let name = honoursCancellation ? "token-task-uploader/correct" : "token-task-uploader/uncancellable-upload"
        return WorkloadCampaign(
            workload: WorkloadInfo(name: name, summary: "uploads in BackgroundTaskToken.task", usesAsync: true) {
                TokenTaskUploader(honoursCancellation: honoursCancellation)
            },
            runs: TestSize.pick(quick: 150, ci: 400), seed: Seed(0x70c7)
        ).run()
    }

    @Test("uploads that honour cancellation hold every invariant, and expiries reach them mid-upload")
    func honouringCancellationHolds() {
        let report = Self.report(honoursCancellation: true)
        #expect(report.passed, "\(report.failures.map { "\($0.invariant): \($0.message)" })")
        #expect(report.result.coverage.probes.contains { $0.name == "expired-mid-upload" && $0.count > 0 })
    }

    @Test("uploads that cannot be cancelled go on after the expiry and are found")
    func uncancellableUploadIsFound() {
        let report = Self.report(honoursCancellation: false)
        #expect(report.failures.map(\.invariant).contains("background-work-held"),
                "\(report.failures.map { "\($0.invariant): \($0.message)" })")
    }
}

/// Uploads three parts in `BackgroundTaskToken.task` on every background entry; each part is a
/// declared work item. The planted bug: each part goes through a callback API with no
/// cancellation (awaited through a continuation), so the part in flight at the expiry runs on.
@MainActor
private final class TokenTaskUploader: Workload {
    let honoursCancellation: Bool
    var observation: LifecycleObservation?
    init(honoursCancellation: Bool) { self.honoursCancellation = honoursCancellation }

    func didFinishLaunching(_ context: WorkloadContext) {
        let honoursCancellation = honoursCancellation
        observation = context.application.addLifecycleObserver { event in
            guard event == .didEnterBackground else { return }
            let uploading = UploadFlag()
            BackgroundTaskToken.task(name: "upload", host: context.application, onExpiration: {
                if uploading.isSet { context.probe("expired-mid-upload") }
            }) {
                for _ in 0..<3 {
                    let work = context.startWork("upload-part")
                    uploading.isSet = true
                    defer { uploading.isSet = false }
                    if honoursCancellation {
                        do { try await Task.sleep(for: context.drawWorkDuration()) } catch {
                            work.cancel()
                            throw error
                        }
                        work.finish()
                    } else {
                        let duration = context.drawWorkDuration()
                        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                            context.application.backgroundQueue.asyncAfter(duration) { done.resume() }
                        }
                        work.finish()
                        try Task.checkCancellation()  // too late: the part was uploaded unheld
                    }
                }
            }
        }
    }
}

/// Whether a part is in flight: set by the upload's task and read by the expiration handler on
/// main, so under a lock (a plain `var` here was a data race the plain-access checks found).
private final class UploadFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
