import BackgroundTaskKit

/// A notes app's backup model as it ships: `@MainActor` state, a background task begun on
/// leaving the foreground, and a `Task` (on the main actor, as it inherits) that uploads the
/// notes in batches. The expiration handler (on main, A3.1) cancels the `Task` and, before
/// ending the task (A3.2, A3.6), records how far the backup got: a quick, synchronous write
/// (A3.5), because nothing the cancelled `Task` does afterwards is covered by the task any more.
///
/// ```swift
/// let model = BackupModel(host: UIKitApplicationHost(), api: URLSessionAPIClient(), store: database)
/// model.didEnterBackground()   // on the main actor
/// ```
///
/// Contract: every task it begins is ended once, inside the expiration handler on expiry.
/// ``Expiry`` names the planted bugs: saving the progress in the `Task`'s cleanup after the
/// handler ended the task (its write runs with nothing holding the app awake, A1.1, B2.3), or
/// leaving the end to that cleanup (still open when the handlers return, A3.6).
///
/// Expected: `main-actor-model-cancel/correct` passes every invariant;
/// `saves-progress-after-end` violates `background-work-held`, `handler-only-cancels`
/// `expiry-ends-task`.
@MainActor
final class BackupModel: BackgroundEntryHandling {
    /// What the expiration handler does besides cancelling the backup.
    enum Expiry: Sendable {
        /// Records the progress synchronously, then ends the task: correct.
        case checkpointThenEnd
        /// Ends the task; the cancelled backup saves its progress afterwards.
        case endBeforeCleanup
        /// Nothing: the cancelled backup saves its progress and ends the task.
        case leaveEndToCleanup
    }

    static let batches = 3

    private let host: any BackgroundTaskHost
    private let api: any APIClient
    private let store: any ProgressStoring
    private let expiry: Expiry
    private var taskID = BackgroundTaskIdentifier.invalid
    private var backup: Task<Void, Never>?
    /// Batches uploaded by the backup in flight.
    private var uploaded = 0
    /// The progress recorded at expiry (a quick synchronous write, like `UserDefaults`).
    private(set) var checkpoint = 0

    init(host: any BackgroundTaskHost, api: any APIClient, store: any ProgressStoring,
         expiry: Expiry = .checkpointThenEnd) {
        self.host = host
        self.api = api
        self.store = store
        self.expiry = expiry
    }

    /// Begins a background task and backs up under it, unless a backup is in flight.
    func didEnterBackground() {
        guard taskID == .invalid else { return }
        let id = host.beginBackgroundTask(withName: "backup-notes") { [weak self] in
            self?.expire()  // A3.1: @MainActor, called on the main thread
        }
        guard id != .invalid else { return }  // A2.1: no background time now
        taskID = id
        uploaded = 0
        backup = Task { await self.runBackup(id) }
    }

    /// Uploads the batches; a backup that stops early (offline, or cancelled by the expiration
    /// handler) records how far it got, then ends its task if still held.
    private func runBackup(_ id: BackgroundTaskIdentifier) async {
        do {
            for batch in 1...Self.batches {
                try await api.send("backup-batch-\(batch)")
                uploaded = batch
            }
        } catch {
            if expiry == .checkpointThenEnd {
                checkpoint = uploaded  // synchronous: nothing is left in flight when the task ends
            } else {
                await store.save(progress: uploaded)  // the bug: a write the handler's end does not wait for
            }
        }
        endTask(id)
    }

    /// The expiration handler.
    private func expire() {
        backup?.cancel()
        switch expiry {
        case .checkpointThenEnd:
            checkpoint = uploaded
            endTask(taskID)
        case .endBeforeCleanup:
            endTask(taskID)
        case .leaveEndToCleanup:
            break  // the bug: the cancelled backup ends it later (A3.6)
        }
    }

    /// Ends `id` if it is the task held, once (A5.4).
    private func endTask(_ id: BackgroundTaskIdentifier) {
        guard id != .invalid, taskID == id else { return }
        host.endBackgroundTask(id)
        taskID = .invalid
        backup = nil
    }
}
