import BackgroundTaskKit
import DeterministicSimulation

/// The podcast downloads with the obvious continuation wrapper: it resumes from the SDK's
/// completion only, and the expiration handler cancels the `Task`, whose cancellation handler
/// cancels the download. The SDK calls nothing back for a cancelled download, so on the expiry
/// path the continuation is never resumed: the `Task` hangs, the `BGTask` is never completed,
/// and the system kills the app when the expiry lead runs out (C4.6).
///
/// Expected: `no-watchdog-kill`.
enum PodcastDownloadsLeakingContinuation {
    static func make() -> PodcastDownloads {
        PodcastDownloads { downloader, context in
            await context.withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    downloader.start { ok in continuation.resume(returning: ok) }  // the bug: not on cancel
                }
            } onCancel: {
                downloader.cancel()
            }
        }
    }
}
