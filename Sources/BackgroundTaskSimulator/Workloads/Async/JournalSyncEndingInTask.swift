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
/// writer signals each finished write through a `DispatchSourceUserDataAdd` (as logging and
/// write-behind SDKs coalesce their work): the source's handler runs on a real thread, outside
/// the simulation, so the task awaiting it would be resumed from there and the run could no
/// longer be reproduced. The simulator does not start the source and reports it, named: a store
/// that calls back on its queue (a simulated queue in a run) stays inside.
///
/// Expected: `no-async-escape`.
enum JournalSyncCursorSavedThroughDataSource {
    static func make() -> JournalSync {
        JournalSync { sync, id, session, app, _ in
            sync.cancel()
            Task {
                await CursorStore.shared.save()  // the escape: completes through a data source
                await session.saveCursor(0)
            }
            MainActor.assumeIsolated { session.end(app, id.id) }
        }
    }
}

/// A store with a completion-handler API whose writer signals completion through a Dispatch
/// data source.
final class CursorStore: Sendable {
    static let shared = CursorStore()
    private let queue = DispatchQueue(label: "cursor-store")  // tidy: allow the planted escape itself

    /// Writes the cursor; `completion` runs on the store's queue when the writer signals it.
    func save(completion: @escaping @Sendable () -> Void) {
        let written = DispatchSource.makeUserDataAddSource(queue: queue)
        written.setEventHandler {
            written.cancel()
            completion()
        }
        written.resume()
        written.add(data: 1)  // the write done: its signal
    }

    /// The async form an app writes around it.
    func save() async {
        await withCheckedContinuation { continuation in save { continuation.resume() } }
    }
}
