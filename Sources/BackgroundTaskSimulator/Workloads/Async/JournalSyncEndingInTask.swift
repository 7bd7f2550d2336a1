import BackgroundTaskKit
import DeterministicSimulation

/// The journal sync with an async end: its expiration handler cancels the sync and then starts a
/// `Task` that saves the cursor on the main actor and ends the background task there. The
/// handler returns before that task runs, so the task is still open when UIKit checks (A3.6):
/// the `Task { }` version of P3, and the most natural thing to write in an `async` codebase.
///
/// Expected: `expiry-ends-task`.
enum JournalSyncEndingInTask {
    static func make() -> JournalSync {
        JournalSync { sync, id, session, app, context in
            sync.cancel()
            Task(executorPreference: context.taskExecutor) {  // the bug: the end comes later
                await session.saveCursor(0)
                await session.end(app, id.id)
            }
        }
    }
}

/// The journal sync whose expiration handler saves the cursor in `Task.detached` "so it does not
/// wait for the main actor", then ends the task. On a device that work runs on the global
/// executor, outside everything the app holds; in the simulator it is work that left the run.
///
/// Expected: `no-async-escape`.
enum JournalSyncDetachedCursorSave {
    static func make() -> JournalSync {
        JournalSync { sync, id, session, app, _ in
            sync.cancel()
            Task.detached {  // the bug: Swift's global executor, not the app's
                await session.saveCursor(0)
            }
            SimulatedMainActor.assumeIsolated { session.end(app, id.id) }
        }
    }
}
