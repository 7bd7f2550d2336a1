import BackgroundTaskKit

/// ``GalleryUploads`` whose `handleEventsForBackgroundURLSession` reconnects the session and calls
/// the completion handler at once ("reconnected, done"), before the session delivered a single
/// event: the system may suspend the app before `urlSessionDidFinishEvents` (D1).
///
/// Expected: `background-session-completion-called-once`.
enum GalleryCompletesBeforeEvents {
    static func make() -> GalleryUploads { GalleryUploads(flaw: .completesBeforeEvents) }
}
