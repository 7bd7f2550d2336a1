import DeterministicSimulation

/// `background-work-held`: no declared work is in flight while the app is in the background with
/// nothing holding it awake (no UIKit task, no BGTask), because the app is about to be suspended
/// under it (B2.3, A1.1). Catches released tokens (P5) and work started without a task.
final class BackgroundWorkHeld: EventFilteringChecker {
    private var inFlight: [(id: Int, name: String, started: VirtualTime)] = []
    private var reported: [Int] = []

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .workStarted(let id, let name):
            inFlight.append((id, name, time))
        case .workFinished(let id, _, _):
            inFlight.removeEach { $0.id == id }
        case .terminated, .processLaunched:
            inFlight = []
        case .nothingHeld(let reason):
            let fresh = inFlight.filter { !reported.contains($0.id) }
            guard !fresh.isEmpty else { return nil }
            reported += fresh.map(\.id)
            let work = fresh.map { "'\($0.name)' (started at \($0.started))" }.joined(separator: ", ")
            return "work \(work) was still running at \(time) when \(reason), with no background task held "
                + "in the background: the app would be suspended under it; hold a task until the work ends"
        default:
            break
        }
        return nil
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .workStarted, .workFinished, .terminated, .processLaunched, .nothingHeld: true
        default: false
        }
    }
}
