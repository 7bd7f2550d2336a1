import BackgroundTaskKit

/// A notes app whose database lives in the app group's shared container, so that its widget can
/// read it. On `didEnterBackground` it saves the note being edited in a write transaction (an
/// SQLite `BEGIN IMMEDIATE`, which takes a file lock) under a ``BackgroundTaskToken``; the write
/// takes a drawn time on the background queue and commits on the main queue.
///
/// The correct app releases the lock on every path before its task ends: the commit unlocks,
/// the expiration handler rolls back (unlocks) before the token ends the task, and a refused
/// begin skips the save (the note stays in memory for the next background entry). The planted
/// bug (``LockHeldAcrossSuspension``) cancels the work in the expiration handler but leaves the
/// transaction open ("the commit will close it"): the app is suspended holding the lock, and iOS
/// kills it with `0xdead10cc`.
///
/// Expected: passes every invariant, `no-file-lock-at-suspend` included.
final class SharedNotesStore: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time; the state is touched on main only.
    static let database = "group.com.example.notes/notes.sqlite"
    /// Whether the expiration handler rolls the transaction back (the planted bug does not).
    let rollsBackOnExpiry: Bool
    private var observation: LifecycleObservation?
    private var editedNotes = 0
    private var token: BackgroundTaskToken?
    /// The open write transaction's lock on the shared database.
    private var transaction: SharedFileLock?

    init(rollsBackOnExpiry: Bool = true) {
        self.rollsBackOnExpiry = rollsBackOnExpiry
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.application.addLifecycleObserver { [unowned self] event in
            switch event {
            case .didBecomeActive: if context.draw(probability: 0.7) { editedNotes += 1 }  // the user typed
            case .didEnterBackground: save(context)
            default: break
            }
        }
    }

    private func save(_ context: WorkloadContext) {
        guard editedNotes > 0, token == nil else { return }
        let work = context.startWork("save-note")
        let task = BackgroundTaskToken(name: "save-note", host: context.application) { [unowned self] in
            work.cancel()
            if rollsBackOnExpiry { transaction?.unlock() }  // ROLLBACK: the lock goes before the task
            token = nil
        }
        guard task.isRunning else {  // refused (A2.1): keep the note for the next background entry
            work.cancel()
            return
        }
        token = task
        let lock = context.files.lockShared(Self.database)  // BEGIN IMMEDIATE
        transaction = lock
        let saving = editedNotes
        context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [unowned self] in
            context.application.mainQueue.async { [unowned self] in
                lock.unlock()  // COMMIT (does nothing after a rollback)
                if transaction === lock { transaction = nil }
                guard !work.isDone else { return }  // expired: rolled back, the note stays edited
                editedNotes -= min(saving, editedNotes)
                work.finish()
                task.invalidate()
                token = nil
            }
        }
    }
}
