/// A process-wide object of Foundation that a run gives each simulated app process its own of,
/// as a device does (the runtime shims' `foundation_singletons.c`).
///
/// ```swift
/// scheduler.onFoundationSingleton = { kind in liveProcess.object(for: kind) }
/// // app code in the run, unchanged:
/// NotificationCenter.default.post(name: .uploadFinished, object: nil)   // the process's own center
/// ```
///
/// Why: one OS process runs many simulated processes (and a campaign many runs). With
/// Foundation's one center, an observer a killed process (or an earlier run) added still
/// received later posts, its block reaching an app that was gone.
///
/// Contract: app code's calls of the getter inside a run get the object
/// ``Scheduler/onFoundationSingleton`` gives; Foundation's code reaching it from inside
/// Foundation still gets the process-wide one; Linux only (x86-64 and arm64).
/// `OperationQueue.main` is not one yet (a per-process main queue livelocked Linux Foundation's
/// `waitUntilAllOperationsAreFinished()`).
package enum FoundationSingleton: Int32, Sendable {
    /// `NotificationCenter.default`.
    case notificationCenter = 0
}
