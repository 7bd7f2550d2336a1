import BackgroundTaskKit

/// ``TrackBackup`` whose give-up path cancels the upload but returns without invalidating the
/// stored token: the retry logic was added later and its last branch only "stops retrying".
/// The task stays held, idle, until the system expires it. Reached only when one backup loses
/// its connection three times: home, then network down, up within the one-second back-off and
/// down again during the retry, twice.
///
/// ```swift
/// let workload = TrackBackupKeepsTaskWhenGivingUp.make()
/// ```
///
/// Expected: `no-idle-task`.
enum TrackBackupKeepsTaskWhenGivingUp {
    static func make() -> TrackBackup { TrackBackup(keepsTaskWhenGivingUp: true) }
}
