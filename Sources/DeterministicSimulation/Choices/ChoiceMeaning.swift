/// What a recorded sequence of choices means: the version of the engine's and the simulator's
/// use of choices. The same choices replay the same run only under the same version; a change
/// that makes them give another run (a new scheduling point, a new draw, a draw moved) bumps it.
///
/// ```swift
/// saved.choiceMeaning == ChoiceMeaning.current   // its replay is the run that failed
/// ```
///
/// Contract: a saved failure records the version it was found under; one saved under another
/// version that no longer fails is not taken for fixed (its choices now mean another run) and is
/// kept, so a finding is never lost to an upgrade. Versions:
/// - 1: every failure saved before the version was recorded.
/// - 2: app code's lock acquisitions are scheduling points (a run of app code that takes
///   `NSLock`s, pthread mutexes or read-write locks draws at each).
/// - 3: so are app code's releases of a mutex, Linux Foundation's
///   `waitUntilAllOperationsAreFinished()` sleeps a little when a poll finds nothing changed, and
///   a thread the app starts runs as a simulated thread (a job of a new queue of its process).
public enum ChoiceMeaning {
    /// The version of this build.
    public static let current: Int64 = 3
    /// The version of a saved failure that does not record one.
    public static let unrecorded: Int64 = 1
}
