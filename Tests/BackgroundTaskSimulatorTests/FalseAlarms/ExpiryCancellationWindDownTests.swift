import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Work an expiration handler cancels winds down after the handler has ended the task (A3.2: the
/// task must end inside the handler; the cancelled `Task` resumes in a later job, which the
/// scheduler may delay). `background-work-held` reported that work at the end itself, against
/// an uploader that does what Apple says: cancel the work and end the task in the handler. It
/// now judges such work when the app is next suspended (A3.1; ExpiryWindDownSuspensionTests):
/// ended by then is excused, still running is found, so a handler that ends the task and leaves
/// the upload going is still caught.
@Suite("Cancelled work winding down after an expiry")
struct ExpiryCancellationWindDownTests {
    static func campaign(cancelsOnExpiry: Bool) -> WorkloadCampaign {
        WorkloadCampaign(
            workload: WorkloadInfo(
                name: cancelsOnExpiry ? "retrying-uploader/correct" : "retrying-uploader/expiry-leaves-upload-going",
                summary: "uploads with retries in a Task under a background task", usesAsync: true
            ) { RetryingUploader(cancelsOnExpiry: cancelsOnExpiry) },
            runs: TestSize.pick(quick: 150, ci: 400), seed: Seed(0xe1d0))
    }

    @Test("a handler that cancels the upload and ends the task holds every invariant, with threads and preemption delays")
    func cancellingHandlerHolds() {
        let report = Self.campaign(cancelsOnExpiry: true).run()
        #expect(report.passed, "\(report.failures.map { "\($0.invariant): \($0.message)" })")
        // The case is reached: expiries come while an upload is in flight.
        #expect(report.result.coverage.probes.contains { $0.name == "expired-mid-upload" && $0.count > 0 })
    }

    @Test("a handler that ends the task and leaves the upload going is found")
    func handlerLeavingTheUploadIsFound() {
        let report = Self.campaign(cancelsOnExpiry: false).run()
        #expect(report.failures.map(\.invariant).contains("background-work-held"),
                "\(report.failures.map { "\($0.invariant): \($0.message)" })")
    }
}

/// Uploads on every background entry in a `Task`, three attempts with a pause between them, as
/// an app writes it: the declared work of an attempt ends in the `Task` (finished, or cancelled
/// in the `catch` once the cancelled sleep throws). The expiration handler ends the task; with
/// `cancelsOnExpiry` it first cancels the `Task`, as it should.
@MainActor
private final class RetryingUploader: Workload {
    let cancelsOnExpiry: Bool
    var observation: LifecycleObservation?
    init(cancelsOnExpiry: Bool) { self.cancelsOnExpiry = cancelsOnExpiry }

    func didFinishLaunching(_ context: WorkloadContext) {
        let host = context.application
        observation = host.addLifecycleObserver { [cancelsOnExpiry] event in
            guard event == .didEnterBackground else { return }
            var id = BackgroundTaskIdentifier.invalid
            var uploading = false
            var upload: Task<Void, Never>?
            upload = Task { @MainActor in
                for _ in 0..<3 {
                    let work = context.startWork("upload")
                    uploading = true
                    do {
                        try await Task.sleep(for: context.drawWorkDuration())
                    } catch {
                        work.cancel()
                        break
                    }
                    uploading = false
                    work.finish()
                    do { try await Task.sleep(for: .seconds(2)) } catch { break }
                }
                if id != .invalid {
                    host.endBackgroundTask(id)
                    id = .invalid
                }
            }
            id = host.beginBackgroundTask(withName: "upload") {
                if uploading { context.probe("expired-mid-upload") }
                if cancelsOnExpiry { upload?.cancel() }
                if id != .invalid {
                    host.endBackgroundTask(id)
                    id = .invalid
                }
            }
        }
    }
}
