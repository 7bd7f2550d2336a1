import DeterministicSimulation

/// `protected-data-available`: a work item is not finished as done when its last file write
/// failed because the file's protected data was unavailable: the device was locked (a
/// ``FileProtection/complete`` file, from a few seconds after the lock) or had not been unlocked
/// since a reboot (``FileProtection/completeUntilFirstUserAuthentication`` too). The data never
/// reached the disk, so the work must be kept and retried when the data is available (or
/// written with a class that is available in the background), never reported done.
///
/// Excuses nothing, and needs no excuse: a lock or a reboot makes the write fail, but what is
/// judged is the app's decision afterwards to finish the work as done.
///
/// ```swift
/// // Caught: a night-time refresh writes a complete-protection file and ignores the error.
/// try? context.files.write("articles.json", protection: .complete, for: work)
/// work.finish()
/// ```
final class ProtectedDataAvailable: EventFilteringChecker {
    /// The last write of each work item: its file and outcome.
    private var lastWrite: [(work: Int, file: String, protection: String, outcome: String)] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .fileAccess(let file, "write", let protection, let work, let outcome) where work != 0:
            if let index = lastWrite.firstIndex(where: { $0.work == work }) {
                lastWrite[index] = (work, file, protection, outcome)
            } else {
                lastWrite.append((work, file, protection, outcome))
            }
        case .workFinished(let id, let workName, let cancelled):
            // Most work writes no file: an empty list answers without a search.
            guard !lastWrite.isEmpty, let index = lastWrite.firstIndex(where: { $0.work == id }) else { return nil }
            let last = lastWrite.remove(at: index)
            guard !cancelled, last.outcome != "ok" else { return nil }
            return "work '\(workName)' was finished at \(time) after its write of '\(last.file)' (\(last.protection)) "
                + "failed with \(last.outcome): the device was locked or not unlocked since a reboot; keep the data "
                + "and write it when protected data is available, or use a class the background can reach"
        case .processLaunched:
            lastWrite = []
        default:
            break
        }
        return nil
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .fileAccess, .workFinished, .processLaunched: true
        default: false
        }
    }
}
