/// A process-wide object of Foundation that a run gives its own of, as a device does (the runtime
/// shims' `foundation_singletons.c`): each simulated app process's `NotificationCenter.default`,
/// and the run's `UserDefaults.standard`, which its launches share.
///
/// ```swift
/// scheduler.onFoundationSingleton = { kind in liveProcess.object(for: kind) }
/// // app code in the run, unchanged:
/// NotificationCenter.default.post(name: .uploadFinished, object: nil)   // the process's own center
/// ```
///
/// Why: one OS process runs many simulated processes (and a campaign many runs). With
/// Foundation's one center, an observer a killed process (or an earlier run) added still
/// received later posts, its block reaching an app that was gone; with its one defaults, what
/// one run stored the next read (a sync skipped as done "10 minutes ago", in another run).
///
/// Contract: app code's calls of the getter inside a run get the object
/// ``Scheduler/onFoundationSingleton`` gives; Foundation's code reaching it from inside
/// Foundation still gets the process-wide one; Linux only (x86-64 and arm64).
/// `OperationQueue.main` is not one yet (a per-process main queue livelocked Linux Foundation's
/// `waitUntilAllOperationsAreFinished()`).
package enum FoundationSingleton: Int32, Sendable {
    /// `NotificationCenter.default`.
    case notificationCenter = 0
    /// `UserDefaults.standard` (the simulator gives each run one, shared by its launches).
    case userDefaults = 1
}
