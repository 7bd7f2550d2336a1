import BackgroundTaskKit
import Foundation

/// The reading list scheduling its refresh "once": the first launch submits the request and sets
/// a `UserDefaults` flag, later launches trust the flag, and the repeating refresh keeps the chain
/// going from its launch handler. An App Store update drops the pending request (C3.7) but keeps
/// the defaults, so after an update nothing schedules the sync again.
///
/// Expected: `refresh-stays-scheduled` (no request pending at the end, after an update).
final class ReadingListScheduledOnceAtInstall: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time.
    static let scheduledKey = "readingListRefreshScheduled"

    func didFinishLaunching(_ context: WorkloadContext) {
        guard let scheduler = ReadingListSync.register(context) else { return }
        let defaults = context.userDefaults
        if defaults.bool(forKey: Self.scheduledKey) {
            context.probe("reading-list-trusts-install-flag")  // the bug: the request may be gone
            return
        }
        ReadingListSync.schedule(scheduler, context)
        defaults.set(true, forKey: Self.scheduledKey)
    }
}
