import DeterministicSimulation

/// `every-begin-ended`: each begun background task is ended before the run ends, unless the app
/// was terminated by the system for a reason the client could not prevent (A1.2, A5.1, A7.1).
///
/// Reports a task still open when the app is killed for a preventable reason (the watchdog at the
/// deadline, a crash) and any task still open when the run ends.
final class EveryBeginEnded: InvariantChecker {
    private var open: [(id: Int, name: String, began: VirtualTime)] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .processLaunched:
            open = []
        case .taskBegan(let id, let name, _):
            open.append((id, name, time))
        case .taskEnded(let id, _):
            open.removeAll { $0.id == id }
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

    static func list(_ tasks: [(id: Int, name: String, began: VirtualTime)]) -> String {
        let items = tasks.map { "task \($0.id) (\"\($0.name)\", begun at \($0.began))" }
        return (items.count == 1 ? "background " : "background tasks ") + items.joined(separator: ", ")
    }
}

/// `no-double-end`: no task id is ended twice, and no unknown or invalid id is ended (A5.2, A5.3).
final class NoDoubleEnd: InvariantChecker {
    private var ended: [(id: Int, at: VirtualTime)] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .processLaunched:
            ended = []
        case .taskEnded(let id, _):
            ended.append((id, time))
        case .endedUnknownTask(let id):
            let what: String
            if id == 0 {
                what = "endBackgroundTask(.invalid) was called"
            } else if let first = ended.last(where: { $0.id == id }) {
                what = "endBackgroundTask(\(id)) ended task \(id) a second time (first ended at \(first.at))"
            } else {
                what = "endBackgroundTask(\(id)) ended a task that was never begun"
            }
            return "\(what) at \(time) (app \(facts.state)): \"Can't end BackgroundTask: no background task "
                + "exists with identifier \(id)\"; set the stored id to .invalid once ended"
        default:
            break
        }
        return nil
    }
}

/// `expiry-ends-task`: when the system calls expiration handlers, every outstanding task is ended
/// before the handlers return, so the app is never killed for it (A3.2, A3.6).
final class ExpiryEndsTask: InvariantChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .expirationHandlersReturned(let open, _) = event, !open.isEmpty else { return nil }
        let tasks = open.map { facts.describeTask($0) }.joined(separator: ", ")
        return "\(tasks) still not ended after expiration handlers were called at \(time) (app \(facts.state)); "
            + "end the task inside its expiration handler, synchronously"
    }
}

/// `no-watchdog-kill`: the simulated watchdog never kills the app (0x8badf00d: A3.5, A7.1, A10.1,
/// C4.6).
final class NoWatchdogKill: InvariantChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .terminated(.watchdog(let detail), _) = event else { return nil }
        return "the watchdog killed the app at \(time) (0x8badf00d): \(detail)"
    }
}
