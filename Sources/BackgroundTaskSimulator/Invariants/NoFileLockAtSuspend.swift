import DeterministicSimulation

/// `no-file-lock-at-suspend`: the app is never suspended while it holds a lock on a file in a
/// shared container (an app group's SQLite database, a `flock`). iOS kills such an app with
/// `0xdead10cc` ("held on to a file lock or SQLite database lock during suspension"); with
/// ``OSProfile/killsOnSharedFileLockAtSuspension`` off the suspension itself is reported, since
/// the widget or extension that shares the file would wait on it.
///
/// Excuses nothing, and needs no excuse: a suspension comes only after the app's last task ends or
/// expires, and an expiry calls the app's handlers first, which must release the lock; a process
/// killed while holding a lock (a force-quit, jetsam) is not suspended and not judged.
///
/// ```swift
/// // Caught: the expiration handler ends the task but leaves the write transaction open.
/// let transaction = context.files.lockShared("group.notes/notes.sqlite")
/// token = BackgroundTaskToken(name: "save", host: app) { work.cancel() }   // no unlock
/// ```
final class NoFileLockAtSuspend: EventFilteringChecker {
    /// The shared files the current process holds locks on, in locking order.
    private var held: [String] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .fileAccess(let file, "lock", _, _, _):
            held.append(file)
        case .fileAccess(let file, "unlock", _, _, _):
            if let index = held.firstIndex(of: file) { held.remove(at: index) }
        case .terminated(.fileLockHeld(let file), _):
            held = []
            return "the app was killed at \(time) with 0xdead10cc: it was suspended holding a lock on '\(file)' "
                + "in the shared container; release the lock (commit or roll back) before the background task ends, "
                + "in the expiration handler too"
        case .stateChanged(_, .suspended):
            guard let file = held.first else { return nil }
            return "the app was suspended at \(time) holding a lock on '\(file)' in the shared container "
                + "(iOS kills it with 0xdead10cc); release the lock before the background task ends"
        case .processLaunched:
            held = []
        default:
            break
        }
        return nil
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .fileAccess, .terminated, .stateChanged, .processLaunched: true
        default: false
        }
    }
}
