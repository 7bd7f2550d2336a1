import DeterministicSimulation

/// `every-begin-ended`: each begun background task is ended before the run ends, unless the app
/// was terminated by the system for a reason the client could not prevent (A1.2, A5.1, A7.1).
///
/// Reports a task still open when the app is killed for a preventable reason (the watchdog at the
/// deadline, a crash) and any task still open when the run ends.
///
/// Excuses (issue 32: blame only what the code could prevent): tasks open when the process ends
/// for a reason the app cannot prevent (``TerminationReason/isPreventable``: a force-quit B3.2,
/// jetsam B3.4, a reboot B3.1, an app update C3.7), since no code of the app runs after such a
/// kill. Not excused: the watchdog, the task limit, a crash or 0xdead10cc, which the app causes.
/// An early expiry (A3.3) calls the expiration handlers, which must end the tasks as at any expiry.
final class EveryBeginEnded: EventFilteringChecker {
    private var open: [(id: Int, name: String, began: VirtualTime)] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .processLaunched:
            open = []
        case .taskBegan(let id, let name, _):
            updateOpen { $0.append((id, name, time)) }
        case .taskEnded(let id, _):
            updateOpen { $0.removeEach { $0.id == id } }
        case .terminated(let reason, _):
            defer { open = [] }
            guard reason.isPreventable, !open.isEmpty else { return nil }
            return "\(Self.list(open)) never ended: the app was killed at \(time) in state "
                + "\(facts.state) (\(reason)); call endBackgroundTask(_:) once for every beginBackgroundTask"
        default:
            break
        }
        return nil
    }

    func finish(at time: VirtualTime, facts: RunFacts) -> [String] {
        guard !open.isEmpty else { return [] }
        return ["\(Self.list(open)) still not ended when the run ended at \(time) (app \(facts.state))"]
    }

    /// Changes ``open`` through a local copy (taken out, changed, put back), so that every access
    /// to the property is a plain read or write, checked for exclusivity statically (see
    /// ``NoIdleTask``); changing it in place cost a dynamic check per task.
    private func updateOpen(_ change: (inout [(id: Int, name: String, began: VirtualTime)]) -> Void) {
        var local = open
        open = []
        change(&local)
        open = local
    }

    static func list(_ tasks: [(id: Int, name: String, began: VirtualTime)]) -> String {
        let items = tasks.map { "task \($0.id) (\"\($0.name)\", begun at \($0.began))" }
        return (items.count == 1 ? "background " : "background tasks ") + items.joined(separator: ", ")
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .processLaunched, .taskBegan, .taskEnded, .terminated: true
        default: false
        }
    }
}
