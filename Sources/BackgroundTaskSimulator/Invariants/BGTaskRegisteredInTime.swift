import DeterministicSimulation

/// `bgtask-registered-in-time`: every BGTaskScheduler launch handler is registered before the
/// app finishes launching, once per identifier, and before a request for it is submitted or
/// launched (C1.1, C1.3, C1.4, C2.4). Any of these mistakes crashes the app with
/// `NSInternalInconsistencyException`; the checker reports the crash in those terms.
final class BGTaskRegisteredInTime: InvariantChecker {
    static let reasons = [
        "All launch handlers must be registered before application finishes launching",
        "has already been registered",
        "No launch handler registered for task with identifier",
    ]

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .terminated(.exception(let name, let reason), _) = event,
            Self.reasons.contains(where: { reason.contains($0) })
        else { return nil }
        return "the app crashed at \(time) (app \(facts.state)): \(name): '\(reason)'; register every "
            + "launch handler once, in application(_:didFinishLaunchingWithOptions:)"
    }
}

/// `bgtask-completed-once`: every launched BGTask is completed exactly once, on every path,
/// including the expiration path (C4.5-C4.7).
final class BGTaskCompletedOnce: InvariantChecker {
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
}
