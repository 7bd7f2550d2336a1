import BackgroundTaskKit
import Foundation

/// The audiobook player trusting its audio session: "the chapter keeps the app running, so the
/// download's task can never expire", so the task is begun with no expiration handler. True
/// while the chapter plays (A4.8, D5); but a chapter that ends before the download does leaves
/// the app with the usual budget, and at its end the system calls the handlers of a task that has
/// none: the task is still open, and the watchdog kills the app at the deadline (A3.2, A7.1).
///
/// Expected: `expiry-ends-task`.
final class AudiobookDownloadWithoutExpiryHandler: AudiobookPlayer, @unchecked Sendable {
    override func beginDownloadTask(
        _ app: SimulatedApplication, cancel: @escaping @Sendable () -> Void
    ) -> BackgroundTaskIdentifier {
        // The bug: no handler, because audio "holds the app" (only while it plays).
        app.beginBackgroundTask(withName: "download-chapter", expirationHandler: nil)
    }
}
