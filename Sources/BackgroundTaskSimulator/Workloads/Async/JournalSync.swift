import BackgroundTaskKit
import DeterministicSimulation

/// A journaling app's sync in Swift concurrency as apps write it (a plain `Task`, the real
/// `@MainActor`), done right: on leaving the foreground it begins a background task and starts a
/// `Task` that uploads the new entries in batches; its bookkeeping lives on the main actor
/// (``JournalSession``). The expiration handler runs on the
/// main thread, so it cancels the sync task and ends the background task right there, and the
/// sync saves its cursor when it sees the cancellation. The sync ends only its own task: a sync
/// cancelled by expiry that finishes after a newer sync began must not end the newer one's
/// (found by the simulator in an earlier version).
///
/// Expected: passes every invariant.
final class JournalSync: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    private var observation: LifecycleObservation?
    /// What the expiration handler does, on the main thread (the planted bug swaps it).
    typealias Expiry = @Sendable (_ sync: TaskHandle, _ id: TaskIDBox, JournalSession, SimulatedApplication,
                                  WorkloadContext) -> Void
    let onExpiry: Expiry

    init(onExpiry: @escaping Expiry = JournalSync.cancelAndEnd) {
        self.onExpiry = onExpiry
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let session = MainActor.assumeIsolated { JournalSession() }
        let onExpiry = onExpiry
        observation = context.onDidEnterBackground {
            let sync = TaskHandle()
            let box = TaskIDBox()
            let id = MainActor.assumeIsolated {
                session.begin(app) { onExpiry(sync, box, session, app, context) }
            }
            guard id != .invalid else { return }
            box.id = id
            sync.task = Task {
                await Self.upload(context, session: session)
                await session.end(app, id)  // its own task only: a newer sync may hold another
            }
        }
    }

    /// Cancels the sync and ends the task before the handler returns.
    @Sendable static func cancelAndEnd(_ sync: TaskHandle, _ id: TaskIDBox, _ session: JournalSession,
                                       _ app: SimulatedApplication, _ context: WorkloadContext) {
        sync.cancel()
        MainActor.assumeIsolated { session.end(app, id.id) }
    }

    /// Uploads up to four batches, saving the cursor after each and when cancelled.
    static func upload(_ context: WorkloadContext, session: JournalSession) async {
        let batches = context.drawInt(in: 1...4)
        for batch in 1...batches {
            do {
                try await AsyncWork.perform("journal-batch-\(batch)", context)
            } catch {
                await session.saveCursor(batch - 1)
                return
            }
            await session.saveCursor(batch)
        }
    }
}
