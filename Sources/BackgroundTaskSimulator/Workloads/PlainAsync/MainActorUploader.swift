import BackgroundTaskKit

/// A photo app's uploader as it ships: `@MainActor` state, a background task begun on leaving
/// the foreground, the upload in `Task.detached` off the main thread, and the end back on the
/// main actor with `await MainActor.run`. The expiration handler (on main, A3.1) cancels the
/// upload and ends the task itself (A3.2, A3.6); the hop back then finds it ended. Plain Swift
/// concurrency only: inside a run every job of it is the simulation's.
///
/// ```swift
/// let uploader = PhotoUploader(host: UIKitApplicationHost(), api: URLSessionAPIClient())
/// // in sceneDidEnterBackground, on the main actor:
/// uploader.didEnterBackground()
/// ```
///
/// Contract: one upload at a time; every task it begins is ended exactly once (A5.4: the stored
/// id is reset to `.invalid` on the first end, so a second end is a no-op) unless
/// ``endsOnlyIfHeld`` is off, the planted bug.
///
/// Expected: `main-actor-uploader/correct` passes every invariant;
/// `ends-again-after-expiry` violates `no-double-end`.
@MainActor
final class PhotoUploader: BackgroundEntryHandling {
    private let host: any BackgroundTaskHost
    private let api: any APIClient
    /// The planted bug switches this off: the hop back ends the id it began, unchecked.
    private let endsOnlyIfHeld: Bool
    private var taskID = BackgroundTaskIdentifier.invalid
    private var upload: Task<Void, Never>?

    init(host: any BackgroundTaskHost, api: any APIClient, endsOnlyIfHeld: Bool = true) {
        self.host = host
        self.api = api
        self.endsOnlyIfHeld = endsOnlyIfHeld
    }

    /// Begins a background task and uploads under it, unless an upload is in flight.
    func didEnterBackground() {
        guard taskID == .invalid else { return }
        let id = host.beginBackgroundTask(withName: "upload-photos") { [weak self] in
            self?.expire()  // A3.1: @MainActor, called on the main thread
        }
        guard id != .invalid else { return }  // A2.1: no background time now
        taskID = id
        let api = api
        upload = Task.detached(priority: .utility) {
            try? await api.send("upload-photos")
            await MainActor.run { self.uploadEnded(id) }
        }
    }

    /// The expiration handler: stop the upload, end the task before returning (A3.2, A3.6).
    private func expire() {
        upload?.cancel()
        endTask()
    }

    /// The hop back from the upload, on the main actor.
    private func uploadEnded(_ id: BackgroundTaskIdentifier) {
        if endsOnlyIfHeld {
            guard taskID == id else { return }  // ended by expiry (or a newer upload holds another)
            endTask()
        } else {
            host.endBackgroundTask(id)  // the bug: expiry may have ended it already (A5.2)
            taskID = .invalid
        }
    }

    /// Ends the held task once: the id is `.invalid` afterwards (A5.4).
    private func endTask() {
        guard taskID != .invalid else { return }
        host.endBackgroundTask(taskID)
        taskID = .invalid
        upload = nil
    }
}
