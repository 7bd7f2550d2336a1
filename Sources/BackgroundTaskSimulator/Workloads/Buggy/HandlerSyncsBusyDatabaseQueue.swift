import BackgroundTaskKit

/// An offline-first notes app keeps its SQLite database behind one serial queue, as the usual
/// database wrappers do (every statement is a job on `db`). When the user leaves, it imports the
/// notes the server changed, one transaction per batch, each statement a job on `db`; an import is
/// seconds to minutes of blocking writes. The expiration handler rolls the open transaction back
/// with `db.sync { … }`, so that the database is consistent before the app is suspended, and then
/// ends the task.
///
/// ```swift
/// let id = app.beginBackgroundTask(withName: "import-notes") {
///     db.sync { rollBack() }          // waits for the batch that is being written
///     app.endBackgroundTask(id)
/// }
/// ```
///
/// The race: when the expiry callout comes while the import is being written on the `db` thread,
/// the handler's `sync` waits on the main thread behind every statement queued before it. More
/// than 3 s of them keep the handlers past the system's limit on their total time and the
/// watchdog kills the app (A3.5, A10.4; the task never ends inside its handler, A3.2). With one
/// thread the `sync` runs inline at once and the run passes (`concurrency` off).
///
/// Expected: `expiration-handlers-return-in-time` (and the 0x8badf00d kill).
final class HandlerSyncsBusyDatabaseQueue: Workload, @unchecked Sendable {
    // @unchecked: `cancelled` and `openTransaction` are touched on the `db` queue only (the
    // handler reaches them through `db.sync`); the box is touched on main only.
    private var db: SimulatedWorkQueue?
    private var cancelled = false
    private var openTransaction = false
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        guard let db = app.makeSerialQueue(label: "db") as? SimulatedWorkQueue else { return }
        self.db = db
        observation = context.onDidEnterBackground { [self] in importChanges(context, db) }
    }

    private func importChanges(_ context: WorkloadContext, _ db: SimulatedWorkQueue) {
        let app = context.application
        let work = context.startWork("import-notes")
        let box = IdentifierBox()
        box.id = app.beginBackgroundTask(withName: "import-notes") { [self] in
            work.cancel()
            db.sync { [self] in  // the bug: waits behind every statement queued on db
                cancelled = true
                openTransaction = false  // ROLLBACK
            }
            app.endBackgroundTask(box.id)
            box.id = .invalid
        }
        db.async { [self] in cancelled = false }
        for _ in 0..<context.drawInt(in: 2...12) {
            db.async { [self] in openTransaction = !cancelled }  // BEGIN
            for _ in 0..<context.drawInt(in: 2...16) {  // the batch's statements, one job each
                db.async { [self] in
                    guard openTransaction else { return }
                    app.performBlockingWork(for: context.drawDuration(in: .milliseconds(100) ... .milliseconds(500)))
                }
            }
            db.async { [self] in openTransaction = false }  // COMMIT
        }
        db.async { [self] in
            guard !cancelled else { return }
            app.mainQueue.async {
                guard box.id != .invalid else { return }
                work.finish()
                app.endBackgroundTask(box.id)
                box.id = .invalid
            }
        }
    }
}
