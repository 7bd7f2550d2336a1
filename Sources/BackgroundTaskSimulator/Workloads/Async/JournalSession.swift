import BackgroundTaskKit
import DeterministicSimulation

/// The journal app's sync bookkeeping, isolated to the main actor as an app's is: the background
/// task id of the sync in flight, and the last uploaded cursor. One instance per process. The
/// real `@MainActor`: inside a run its jobs run on the simulated main queue (DeterministicSimulation's
/// ProcessExecutors), ordered with lifecycle callbacks and expiration handlers.
@MainActor
final class JournalSession {
    private(set) var taskID = BackgroundTaskIdentifier.invalid
    private(set) var savedCursor = 0

    /// Begins the sync's background task unless one is in flight; returns its id (`.invalid`
    /// when none was begun).
    func begin(_ app: SimulatedApplication, expirationHandler: @escaping @Sendable () -> Void) -> BackgroundTaskIdentifier {
        guard taskID == .invalid else { return .invalid }
        taskID = app.beginBackgroundTask(withName: "journal-sync", expirationHandler: expirationHandler)
        return taskID
    }

    /// Ends the sync's background task `id`, once; a stale id (a sync whose task the expiration
    /// handler already ended, while a newer sync holds another) ends nothing.
    func end(_ app: SimulatedApplication, _ id: BackgroundTaskIdentifier) {
        guard id != .invalid, taskID == id else { return }
        app.endBackgroundTask(taskID)
        taskID = .invalid
    }

    /// Records how far the upload got (a quick write to the app's database).
    func saveCursor(_ cursor: Int) {
        savedCursor = max(savedCursor, cursor)
    }
}
