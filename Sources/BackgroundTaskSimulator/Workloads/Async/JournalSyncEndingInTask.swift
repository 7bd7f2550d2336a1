import BackgroundTaskKit
import Dispatch
import DeterministicSimulation

/// The journal sync with an async end: its expiration handler cancels the sync and then starts a
/// `Task` that saves the cursor on the main actor and ends the background task there. The
/// handler returns before that task runs, so the task is still open when UIKit checks (A3.6):
/// the `Task { }` version of P3, and the most natural thing to write in an `async` codebase.
///
/// Expected: `expiry-ends-task`.
enum JournalSyncEndingInTask {
    static func make() -> JournalSync {
        JournalSync { sync, id, session, app, _ in
            sync.cancel()
            Task {  // the bug: the end comes later
                await session.saveCursor(0)
                await session.end(app, id.id)
            }
        }
    }
}

/// The journal sync whose expiration handler saves the cursor through the app's store, whose
/// completion handler (as Core Data's and many SDKs' do) arrives on the store's own
/// `DispatchQueue`, a real one: the task awaiting it is resumed by a real thread, outside the
/// simulation, and the run can no longer be reproduced. The finding is the simulator's limit,
/// named: a store the app hands a simulated queue (BackgroundTaskKit's `WorkQueue`) stays inside.
///
/// Expected: `no-async-escape`.
enum JournalSyncCursorSavedOnRealQueue {
    static func make() -> JournalSync {
        JournalSync { sync, id, session, app, _ in
            sync.cancel()
            Task {
                await CursorStore.shared.save()  // the escape: completes on a real DispatchQueue
                await session.saveCursor(0)
            }
            MainActor.assumeIsolated { session.end(app, id.id) }
        }
    }
}

/// A store with a completion-handler API that calls back on its own real queue.
final class CursorStore: Sendable {
    static let shared = CursorStore()
    private let queue = DispatchQueue(label: "cursor-store")  // tidy: allow the planted escape itself

    /// Writes the cursor; `completion` runs on the store's queue.
    func save(completion: @escaping @Sendable () -> Void) {
        queue.async { completion() }
    }

    /// The async form an app writes around it.
    func save() async {
        await withCheckedContinuation { continuation in save { continuation.resume() } }
    }
}
