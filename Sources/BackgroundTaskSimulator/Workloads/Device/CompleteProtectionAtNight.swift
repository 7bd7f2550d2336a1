import BackgroundTaskKit

/// ``OfflineArticles`` whose articles file has ``FileProtection/complete`` protection (chosen
/// "for privacy") and is written with `try?`: the refresh that runs at night, more than a few
/// seconds after the device locked, cannot write it, drops the error and reports the work done
/// and the task successful. The articles are gone; the reader opens to stale content.
///
/// Expected: `protected-data-available`.
enum CompleteProtectionAtNight {
    static func make() -> OfflineArticles { OfflineArticles(protection: .complete, checksWrite: false) }
}
