import BackgroundTaskKit

/// ``SharedNotesStore`` whose expiration handler cancels the save and lets the task end without
/// rolling back the write transaction: the database in the app group stays locked while the app
/// is suspended, and iOS kills it with `0xdead10cc` (the widget would otherwise wait on the lock).
///
/// Expected: `no-file-lock-at-suspend`.
enum LockHeldAcrossSuspension {
    static func make() -> SharedNotesStore { SharedNotesStore(rollsBackOnExpiry: false) }
}
