import BackgroundTaskKit

/// The upload queue of ``PhotoUploadQueue``, saved only in `applicationWillTerminate`: the
/// pattern of code written for iOS 3, where every quit called it. Since iOS 4 a suspended app
/// is purged without notice (B1.1, B3.1), jetsam sends no callback (B3.4) and a force-quit of a
/// suspended app sends nothing (B3.2), so the photos queued since the last save are lost the
/// first time the app dies while suspended.
///
/// Expected: `work-survives-termination` (the queue has unsaved changes when the process ends).
enum UploadQueueSavedOnlyOnTerminate {
    static func make() -> PhotoUploadQueue { PhotoUploadQueue(savesOnBackground: false) }
}
