/// A process-wide object of Foundation that a run gives its own of, as a device does (the runtime
/// shims' `foundation_singletons.c`): each simulated app process's `NotificationCenter.default`
/// and `OperationQueue.main`, and the run's `UserDefaults.standard`, which its launches share.
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
/// ``Scheduler/onFoundationSingleton`` gives (nil: Foundation's own); Foundation's code reaching
/// it from inside Foundation still gets the process-wide one; Linux only (x86-64 and arm64).
package enum FoundationSingleton: Int32, Sendable {
    /// `NotificationCenter.default`.
    case notificationCenter = 0
    /// `UserDefaults.standard` (the simulator gives each run one, shared by its launches).
    case userDefaults = 1
    /// `OperationQueue.main`: an operation a run left on Foundation's one main queue, its turn
    /// never come, made every later `waitUntilAllOperationsAreFinished()` on it wait forever
    /// (as Linux Foundation's `post` does for an observer added with `queue: .main`).
    /// It is also what `OperationQueue.current` gives on the simulated main thread (the engine
    /// asks for it there; elsewhere Foundation answers).
    case mainOperationQueue = 2
}
