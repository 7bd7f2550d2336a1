import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// App code cancels its requests with the standard `withTaskCancellationHandler`, as an app module
/// (which cannot import the simulator) writes it. Swift runs `onCancel` holding the cancelled
/// task's status-record lock; a handler that called into the simulated system (cancelling its
/// declared work) could be preempted there, and a job of the same task on another simulated
/// thread then waited for that lock: when the run ended meanwhile, the wait was given up and the
/// concurrency runtime aborted ("pthread_mutex_lock failed with error 35"), a `no-crash` against
/// correct code (1 of 1,000 runs of the inbox sync on iOS 12). The engine no longer preempts a
/// thread holding a mutex of the concurrency runtime (`CancellationHandlerTests`).
@Suite("The standard withTaskCancellationHandler in app code")
struct StandardCancellationHandlerTests {
    @Test("an inbox sync with async let and a task group, cancelled on expiry, holds every invariant",
          .enabled(if: Scheduler.tracksPlainLocks),
          arguments: [(OSProfile.ios17, EnvironmentPreset.standard), (.ios12, .standard), (.ios17, .faultStorm)])
    func structuredSyncHolds(profile: OSProfile, preset: EnvironmentPreset) {
        let campaign = WorkloadCampaign(
            workload: WorkloadInfo(name: "inbox-sync/standard-handler", summary: "cancels requests with the standard handler",
                                   usesAsync: true) { StandardHandlerInboxSync() },
            profile: profile, environment: preset.configuration, runs: 1_000, seed: Seed(0x57a7_dca7))
        let report = campaign.run()
        #expect(report.passed, "\(report)")
    }
}

/// Syncs the inbox on every background entry, under a background task token: the messages and
/// the contacts at once (`async let`), then each attachment in a task group. Each request is
/// cancellable: its `onCancel` cancels the request itself. The token's expiration handler cancels
/// the sync's `Task`, and with it every child; a refused begin starts no sync (a task started
/// cancelled could still start a request before it looks at cancellation: `background-work-held`,
/// rightly, as that request runs with nothing holding the app).
private final class StandardHandlerInboxSync: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the main queue only.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground {
            let sync = SyncHandle()
            let token = BackgroundTaskToken(name: "sync-inbox", host: context.application) { sync.cancel() }
            guard token.isRunning else { return }  // refused: nothing would hold the requests
            sync.task = Task {
                defer { token.invalidate() }
                try? await Self.sync(context)
            }
        }
    }

    static func sync(_ context: WorkloadContext) async throws {
        async let messages: Void = request("fetch-messages", context)
        async let contacts: Void = request("fetch-contacts", context)
        _ = try await (messages, contacts)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for attachment in 1...context.drawInt(in: 1...3) {
                group.addTask { try await request("attachment-\(attachment)", context) }
            }
            try await group.waitForAll()
        }
    }

    /// One request of a drawn duration; cancelling the task cancels it at once.
    static func request(_ name: String, _ context: WorkloadContext) async throws {
        let work = context.startWork(name)
        try await withTaskCancellationHandler {
            try await Task.sleep(for: context.drawWorkDuration())
            work.finish()
        } onCancel: {
            work.cancel()
        }
    }
}

/// The sync's task, which the token's expiration handler cancels. Set and read on the main queue.
private final class SyncHandle: @unchecked Sendable {
    var task: Task<Void, Never>?
    func cancel() { task?.cancel() }
}

