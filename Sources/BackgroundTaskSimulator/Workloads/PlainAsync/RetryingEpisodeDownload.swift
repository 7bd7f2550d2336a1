import BackgroundTaskKit

/// A podcast app's episode download on leaving the foreground, as it ships: an `@MainActor`
/// downloader holds a ``BackgroundTaskToken`` while a `Task` fetches the next episode through the
/// app's API client, retrying with backoff until the request goes through ("downloads must not
/// be lost"). The token's expiration handler cancels the `Task` and the token ends the task
/// (A3.2). A cancelled request throws at once, and so does a cancelled `Task.sleep`.
///
/// ```swift
/// let downloader = RetryingEpisodeDownload(host: UIKitApplicationHost(), api: APIClient.shared)
/// downloader.didEnterBackground()   // on the main actor
/// ```
///
/// Contract: one download at a time, under its own token. Correct: a cancelled download stops
/// (the backoff sleep's `CancellationError` ends the loop). With ``stopsWhenCancelled`` off (the
/// planted bug: `try?` on the sleep, "retry until it works") a cancelled download retries
/// forever without waiting: each request and each sleep throws at once; frozen while the app is
/// suspended, it spins as soon as the app runs again.
///
/// Expected: `episode-download/correct` passes every invariant; `retries-until-it-works`
/// violates `no-busy-loop`.
@MainActor
final class RetryingEpisodeDownload: BackgroundEntryHandling {
    private let host: any BackgroundTaskHost
    private let api: any APIClient
    private let stopsWhenCancelled: Bool
    private var download: Task<Void, Never>?
    private var episode = 0

    init(host: any BackgroundTaskHost, api: any APIClient, stopsWhenCancelled: Bool = true) {
        self.host = host
        self.api = api
        self.stopsWhenCancelled = stopsWhenCancelled
    }

    /// Downloads the next episode under a token, unless a download is in flight.
    func didEnterBackground() {
        guard download == nil else { return }
        let token = BackgroundTaskToken(name: "download-episode", host: host) { [weak self] in
            MainActor.assumeIsolated { self?.download?.cancel() }
        }
        guard token.isRunning else { return }  // A2.1: refused (its handler already ran)
        episode += 1
        let name = "episode-\(episode)"
        download = Task {
            await self.downloadWithRetry(name)
            token.invalidate()
            self.download = nil
        }
    }

    /// Sends the request until it goes through, 1, 2, 4 and then 8 s apart.
    private func downloadWithRetry(_ name: String) async {
        var backoff = 1
        while true {
            do {
                try await api.send(name)
                return
            } catch {
                // offline, or cancelled: back off and try again
            }
            if stopsWhenCancelled {
                do { try await Task.sleep(for: .seconds(backoff)) } catch { return }  // tidy: allow virtual in a run
            } else {
                try? await Task.sleep(for: .seconds(backoff))  // tidy: allow virtual in a run. The bug: swallows CancellationError
            }
            backoff = min(backoff * 2, 8)
        }
    }
}
