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

/// The journal sync whose expiration handler saves the cursor through the app's store, which
/// coalesces writes and calls back from a `DispatchSourceTimer` (as write-behind caches and
/// analytics SDKs do): the timer's handler runs on a real thread, outside the simulation, so the
/// task awaiting it would be resumed from there and the run could no longer be reproduced. The
/// simulator does not start the source and reports it, named: a store driven by its queue's
/// `asyncAfter` (a simulated queue in a run) stays inside.
///
/// Expected: `no-async-escape`.
enum JournalSyncCursorSavedOnTimerSource {
    static func make() -> JournalSync {
        JournalSync { sync, id, session, app, _ in
            sync.cancel()
            Task {
                await CursorStore.shared.save()  // the escape: completes from a timer source
                await session.saveCursor(0)
            }
            MainActor.assumeIsolated { session.end(app, id.id) }
        }
    }
}

/// A store with a completion-handler API that writes behind: a timer on its queue flushes and
/// calls back.
final class CursorStore: Sendable {
    static let shared = CursorStore()
    private let queue = DispatchQueue(label: "cursor-store")  // tidy: allow the planted escape itself

    /// Writes the cursor at the next flush, a tenth of a second later; `completion` runs on the
    /// store's queue.
    func save(completion: @escaping @Sendable () -> Void) {
        let flush = DispatchSource.makeTimerSource(queue: queue)
        flush.schedule(deadline: .now() + .milliseconds(100))
        flush.setEventHandler {
            flush.cancel()
            completion()
        }
        flush.resume()
    }

    /// The async form an app writes around it.
    func save() async {
        await withCheckedContinuation { continuation in save { continuation.resume() } }
    }
}
