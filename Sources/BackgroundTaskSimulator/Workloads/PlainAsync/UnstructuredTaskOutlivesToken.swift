import BackgroundTaskKit

/// A gallery app's sync on leaving the foreground, as it ships: an `@MainActor` sync holds a
/// ``BackgroundTaskToken`` while a `Task` uploads the new originals and their thumbnails at the
/// same time, with `async let`, awaiting both before the token ends. Expiry (the token's
/// handler, on main) cancels the `Task`, and with it both uploads.
///
/// ```swift
/// let sync = GallerySync(host: UIKitApplicationHost(), api: URLSessionAPIClient())
/// sync.didEnterBackground()   // on the main actor
/// ```
///
/// Contract: one sync at a time; all its uploads end before its token does. With
/// ``awaitsThumbnails`` off (the planted bug) the thumbnails go in a fire-and-forget `Task {}`,
/// an unstructured task: it is neither awaited nor cancelled with the sync, and runs on after
/// the token ended, with nothing holding the app awake (A1.1, B2.3).
///
/// Expected: `unstructured-task/correct` passes every invariant;
/// `fire-and-forget-thumbnails` violates `background-work-held`.
@MainActor
final class GallerySync: BackgroundEntryHandling {
    private let host: any BackgroundTaskHost
    private let api: any APIClient
    private let awaitsThumbnails: Bool
    private var sync: Task<Void, Never>?

    init(host: any BackgroundTaskHost, api: any APIClient, awaitsThumbnails: Bool = true) {
        self.host = host
        self.api = api
        self.awaitsThumbnails = awaitsThumbnails
    }

    /// Syncs under a token, unless a sync is in flight.
    func didEnterBackground() {
        guard sync == nil else { return }
        let token = BackgroundTaskToken(name: "sync-gallery", host: host) { [weak self] in
            MainActor.assumeIsolated { self?.sync?.cancel() }
        }
        guard token.isRunning else { return }  // A2.1: refused (its handler already ran)
        sync = Task {
            try? await self.uploadNewPhotos()
            token.invalidate()
            self.sync = nil
        }
    }

    /// Uploads the originals and the thumbnails at once.
    private func uploadNewPhotos() async throws {
        let api = api
        if awaitsThumbnails {
            async let thumbnails: Void = api.send("upload-thumbnails")
            try await api.send("upload-originals")
            try await thumbnails
        } else {
            Task { try? await api.send("upload-thumbnails") }  // the bug: nobody awaits or cancels it
            try await api.send("upload-originals")
        }
    }
}
