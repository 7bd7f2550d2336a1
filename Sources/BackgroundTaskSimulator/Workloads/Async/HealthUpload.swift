import BackgroundTaskKit
import DeterministicSimulation

/// A health app's repeating refresh with BackgroundTaskKit's async launch handler: each launch
/// reads the new samples and uploads them in batches in a task group, all awaited inside the
/// handler, so the `BGTask` is completed (successfully) only when the upload is done; expiry
/// cancels the whole upload and completes the task as failed. Without BGTaskScheduler (iOS 12)
/// it uploads on leaving the foreground under a token taken on the main thread (taken inside the
/// `Task`, the begin could race the expiry: see README, async core API).
///
/// Expected: passes every invariant.
final class HealthUpload: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    static let refresh = "com.example.bgapp.refresh"
    private var observation: LifecycleObservation?
    /// One launch's work (the planted bug swaps it).
    let launch: @Sendable (WorkloadContext) async throws -> Void

    init(launch: @escaping @Sendable (WorkloadContext) async throws -> Void = HealthUpload.syncSamples) {
        self.launch = launch
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let launch = launch
        let scheduler = BackgroundTaskScheduler(scheduler: context.taskScheduler, lifecycle: app)
        do throws(TaskRegistrationError) {
            try scheduler.registerRepeatingRefreshAsync(
                Self.refresh, every: .seconds(15 * 60), executorPreference: context.taskExecutor
            ) { _ in
                try await launch(context)
            }
            try? scheduler.submitRepeatingRefresh(Self.refresh)
        } catch {
            // No BGTaskScheduler (iOS 12): upload whenever the app leaves the foreground.
            observation = context.onDidEnterBackground {
                let upload = TaskHandle()
                let token = BackgroundTaskToken(name: "upload-samples", host: app) { upload.cancel() }
                upload.task = Task(executorPreference: context.taskExecutor) {
                    try? await launch(context)
                    token.invalidate()
                }
            }
        }
    }

    /// Reads the new samples, then uploads them in batches, awaiting every batch.
    @Sendable static func syncSamples(_ context: WorkloadContext) async throws {
        let batches = try await readSamples(context)
        try await uploadBatches(batches, context)
    }

    static func readSamples(_ context: WorkloadContext) async throws -> Int {
        try await AsyncWork.perform("read-samples", context)
        return context.drawInt(in: 1...3)
    }

    static func uploadBatches(_ batches: Int, _ context: WorkloadContext) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in 1...batches {
                group.addTask { try await AsyncWork.perform("upload-batch-\(batch)", context, needsNetwork: true) }
            }
            try await group.waitForAll()
        }
    }
}

/// The health upload whose launch handler hands the upload to an unstructured `Task` "so the
/// handler returns quickly": the handler returns, the `BGTask` is completed as a success, and
/// the upload runs on with nothing holding the app awake (and is not cancelled on expiry).
///
/// Expected: `background-work-held`.
enum HealthUploadReturningEarly {
    static func make() -> HealthUpload {
        HealthUpload { context in
            let batches = try await HealthUpload.readSamples(context)
            Task(executorPreference: context.taskExecutor) {  // the bug: the handler does not await it
                try? await HealthUpload.uploadBatches(batches, context)
            }
        }
    }
}
