import BackgroundTaskKit

/// ``GalleryUploads`` that hands the completion handler of `handleEventsForBackgroundURLSession` to
/// the gallery's view controller, which shows upload progress: a background relaunch connects no
/// scene (B1.3), so there is no view controller, the handler is dropped and the wake's time runs
/// out after `urlSessionDidFinishEvents` (D1).
///
/// Expected: `background-session-completion-called-once`.
enum GalleryHandlerKeptByViewController {
    static func make() -> GalleryUploads { GalleryUploads(flaw: .handlerKeptByViewController) }
}
