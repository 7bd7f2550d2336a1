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
        JournalSync { sync, session, app, context in
            sync.task?.cancel()
            Task(executorPreference: context.taskExecutor) {  // the bug: the end comes later
                await session.saveCursor(0)
                await session.end(app)
            }
        }
    }
}
