import SimulationRuntime

/// The work a dead process's code sent to Dispatch: taken, never run, as the process's frozen
/// queues would never run it, and let go of at the device's teardown, while the device lives
/// (what the blocks captured runs its deinits then).
///
/// ```swift
/// // SimulatedDevice, routing a call of code run inertly after its process died:
/// case .async, .after, .notify: deadWork.keep(call, abandonsIfNeverRun: scheduler.usedSwiftConcurrency)
/// // at tearDown():
/// deadWork.release()
/// ```
///
/// Contract: in a run that used Swift concurrency a kept block is abandoned instead of released
/// (`RealDispatchCall.keep(abandonsIfNeverRun:)`): it may hold a checked continuation, whose
/// release prints Swift's "leaked its continuation" misuse warning for code that did nothing
/// wrong (its process was killed), so its captures leak. Before this keeper the shim kept every
/// such block: a few hundred bytes a call, and through its captures the dead process's whole
/// application object (gcd-photo-sync: 2.7 KB a run). A class, not a struct: releasing a block
/// can run a deinit that calls Dispatch, which keeps more work here while ``release()`` runs.
final class DeadProcessWork {
    private var blocks: [RealDispatchWork] = []

    /// Keeps `call`'s work, never to run.
    func keep(_ call: RealDispatchCall, abandonsIfNeverRun: Bool) {
        blocks.append(call.keep(abandonsIfNeverRun: abandonsIfNeverRun))
    }

    /// Lets go of the kept work, again while letting go kept more (at most eight rounds).
    func release() {
        for _ in 0..<8 where !blocks.isEmpty {
            let dead = blocks
            blocks = []
            withExtendedLifetime(dead) {}
        }
    }
}
