import DeterministicSimulation

/// `bgtask-completed-once`: every launched BGTask is completed exactly once, on every path,
/// including the expiration path (C4.5-C4.7).
///
/// Excuses a task still running when its process ends for a reason the app cannot prevent
/// (force-quit B3.2, jetsam B3.4, reboot B3.1, app update C3.7), and the app's first completion
/// of a task the system already completed because it expired without a handler (C4.5, C4.7). Had
/// the false alarm of issue 32's class: a task expired before its launch handler ran, whose
/// handler completed it at once, was reported completed twice (the system's C4.5 completion came
/// after the app's). The callout now runs behind the launch handler and completes only a task
/// still running.
final class BGTaskCompletedOnce: EventFilteringChecker {
    private var running: [(task: Int, identifier: String, launched: VirtualTime)] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .bgTaskLaunched(let identifier, let task, _):
            running.append((task, identifier, time))
        case .bgTaskCompleted(let identifier, let task, _, let repeated):
            running.removeAll { $0.task == task }
            if repeated {
                return "setTaskCompleted(success:) was called again for BGTask \(task) (\(identifier)) at \(time) "
                    + "(app \(facts.state)); complete each task exactly once"
            }
        case .terminated(let reason, _):
            defer { running = [] }
            guard reason.isPreventable, !running.isEmpty else { return nil }
            return "\(Self.list(running)) never completed: the app was killed at \(time) (\(reason)); "
                + "call setTaskCompleted(success:) on every path, including the expiration handler"
        default:
            break
        }
        return nil
    }

    func finish(at time: VirtualTime, facts: RunFacts) -> [String] {
        guard !running.isEmpty else { return [] }
        return ["\(Self.list(running)) not completed when the run ended at \(time)"]
    }

    private static func list(_ tasks: [(task: Int, identifier: String, launched: VirtualTime)]) -> String {
        tasks.map { "BGTask \($0.task) (\($0.identifier), launched at \($0.launched))" }.joined(separator: ", ")
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .bgTaskLaunched, .bgTaskCompleted, .terminated: true
        default: false
        }
    }
}
