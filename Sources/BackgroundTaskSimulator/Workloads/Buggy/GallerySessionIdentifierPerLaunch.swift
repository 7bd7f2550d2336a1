import BackgroundTaskKit

/// ``GalleryUploads`` that makes its background session with a new identifier on every launch (the
/// process number here, a UUID in the apps that do it, to dodge "a session with this identifier
/// already exists"): the session a relaunch is for is never recreated, so its events never arrive
/// and the wake's time runs out (D1).
///
/// Expected: `background-session-recreated`.
enum GallerySessionIdentifierPerLaunch {
    static func make() -> GalleryUploads { GalleryUploads(flaw: .identifierPerLaunch) }
}
