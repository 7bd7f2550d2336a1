import DeterministicSimulation

/// `work-survives-termination`: when the process ends, for any reason, no ``DurableRecord`` has
/// changes that exist only in memory.
///
/// Why every reason counts: a suspended app is purged "without notice" (B1.1, B3.1); jetsam
/// kills with no callback (B3.4); a force-quit of a suspended app sends nothing (B3.2); and
/// `applicationWillTerminate` comes only for a running app, not for one that is suspended
/// (B3.3). So an app that saves only in `willTerminate` loses whatever changed since its last
/// save the first time it is jettisoned while suspended. The fix is to save on
/// `didEnterBackground` (and again before ending the task of any background work that changes
/// the data).
///
/// Excuses no reason for the process to end: judging every kill is the point, and the app's chance
/// to act comes before any of them (a save when the data changes, on `didEnterBackground`, before
/// a task ends). The false-alarm sweep kills correct workloads at every point of their life,
/// from the app switcher included, and none loses a change.
///
/// ```swift
/// // Caught: the upload queue is only saved in willTerminate.
/// observation = app.addLifecycleObserver { if $0 == .willTerminate { queue.save() } }
/// ```
final class WorkSurvivesTermination: EventFilteringChecker {
    /// Unsaved changes per record of the current process, in first-change order.
    private var unsaved: [(record: String, changes: Int)] = []
    /// The current process was told `willTerminate` (B3.3): its end was announced, so the advice
    /// is to save there, not the usual "save on didEnterBackground" (a probe's notes app saved
    /// on background entry, was force-quit from the app switcher while active, got
    /// `willTerminate`, and was told to save on background entry).
    private var toldWillTerminate = false

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .recordChanged(let record, let changes):
            if let index = unsaved.firstIndex(where: { $0.record == record }) {
                unsaved[index].changes = changes
            } else {
                unsaved.append((record, changes))
            }
        case .processLaunched:
            unsaved = []
            toldWillTerminate = false
        case .lifecycle(.willTerminate):
            toldWillTerminate = true
        case .terminated(let reason, _):
            let lost = unsaved.filter { $0.changes > 0 }
            let told = toldWillTerminate
            unsaved = []
            toldWillTerminate = false
            guard !lost.isEmpty else { return nil }
            let what = lost.map { "\($0.changes) unsaved change\($0.changes == 1 ? "" : "s") to '\($0.record)'" }
                .joined(separator: ", ")
            let advice = told
                ? "the app was told willTerminate first (B3.3) and did not save there; save in "
                    + "applicationWillTerminate too (or when the data changes)"
                : "a suspended or jettisoned app gets no callback (B3.1, B3.4); save on didEnterBackground, not only in "
                    + "willTerminate"
            return "the process ended at \(time) (\(reason)) with \(what): the data is lost. " + advice.prefix(1).uppercased()
                + advice.dropFirst()
        default:
            break
        }
        return nil
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .recordChanged, .processLaunched, .terminated, .lifecycle(.willTerminate): true
        default: false
        }
    }
}
