import BackgroundTaskKit
import DeterministicSimulation

/// The notes import of ``HandlerSyncsBusyDatabaseQueue`` done right: the expiration handler never
/// waits for the `db` queue. It sets an interrupt flag (as `sqlite3_interrupt` does, safe from any
/// thread), cancels the work and returns, and the token ends the task inside the system's handler
/// (A3.2, A3.5). Each statement of the import checks the flag before it runs, so an interrupted
/// transaction rolls back on the `db` queue a fraction of a second later.
///
/// ```swift
/// let task = BackgroundTaskToken(name: "import-notes", host: app) {
///     interrupt.withLock { interrupted = true }   // no db.sync in the handler
///     work.cancel()
/// }
/// ```
///
/// Contract: the handler takes only `interrupt`, which the `db` thread holds for a flag read, never
/// across a write, so the handler returns at once, whatever is queued on `db`.
///
/// Expected: passes every invariant.
final class InterruptibleDatabaseImport: Workload, @unchecked Sendable {
    // @unchecked: `interrupted` is only touched holding `interrupt` (a simulated lock);
    // `openTransaction` only on the `db` queue.
    private var interrupted = false
    private var openTransaction = false
    private var interrupt: SimulatedLock?
    private var db: (any WorkQueue)?
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let interrupt = context.makeLock("db interrupt")
        let db = context.application.makeSerialQueue(label: "db")
        self.interrupt = interrupt
        self.db = db
        observation = context.onDidEnterBackground { [self] in importChanges(context, db, interrupt) }
    }

    private func importChanges(_ context: WorkloadContext, _ db: any WorkQueue, _ interrupt: SimulatedLock) {
        let app = context.application
        let work = context.startWork("import-notes")
        let start = ImportStart()
        let task = BackgroundTaskToken(name: "import-notes", host: app) { [self] in
            // A refused begin runs this inside `init`, before the import started: then there is
            // nothing to interrupt (another import may be running under its own task).
            if start.begun { interrupt.withLock { interrupted = true } }
            work.cancel()
        }
        // Refused (A2.1): the work is cancelled; the next background entry imports instead.
        guard task.isRunning else { return }
        start.begun = true
        db.async { [self] in interrupt.withLock { interrupted = false } }
        for _ in 0..<context.drawInt(in: 2...12) {
            db.async { [self] in openTransaction = !isInterrupted(interrupt) }  // BEGIN
            for _ in 0..<context.drawInt(in: 2...16) {  // the batch's statements, one job each
                db.async { [self] in writeStatement(context, interrupt) }
            }
            db.async { [self] in openTransaction = false }  // COMMIT
        }
        db.async { [self] in
            guard !isInterrupted(interrupt) else { return }
            app.mainQueue.async {
                if !work.isDone { work.finish() }
                task.invalidate()
            }
        }
    }

    /// On the `db` queue: one statement of the open transaction, or its rollback if the import
    /// was interrupted since the last statement.
    private func writeStatement(_ context: WorkloadContext, _ interrupt: SimulatedLock) {
        let app = context.application
        guard openTransaction else { return }
        if isInterrupted(interrupt) {
            app.performBlockingWork(for: .milliseconds(100))  // ROLLBACK
            openTransaction = false
        } else {
            app.performBlockingWork(for: context.drawDuration(in: .milliseconds(100) ... .milliseconds(500)))
        }
    }

    private func isInterrupted(_ interrupt: SimulatedLock) -> Bool {
        interrupt.withLock { interrupted }
    }
}

/// Whether an import got its task and started (set on main, read by its handler on main).
private final class ImportStart: @unchecked Sendable {
    // @unchecked: written and read on the main thread only.
    var begun = false
}
