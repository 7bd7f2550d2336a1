import DeterministicSimulation

/// `background-work-held`: no declared work is in flight while the app is in the background with
/// nothing holding it awake (no UIKit task, no BGTask), because the app is about to be suspended
/// under it (B2.3, A1.1). Catches released tokens (P5) and work started without a task.
///
/// Excuses work whose process ended (its record is cleared at every termination). Had the false
/// alarm of issue 32's class: a BGTask the system expired before its launch handler's first line
/// was completed (C4.5, no expiration handler yet) under the work the handler then started. The
/// simulated OS now runs the expiration callout on the registration queue behind the launch
/// handler and takes the handler then (C4.4, C4.5), as iOS does, so a handler that sets its
/// expiration handler first is called. A launch handler that set none is still found. With no
/// registration queue the handlers share the framework's serial queue (C1.5), so an expiry that
/// comes while the launch handler is starting its work waits for it; the simulator once used the
/// app's concurrent global queue there, and completed such a task under the work just started.
final class BackgroundWorkHeld: EventFilteringChecker {
    /// What it has seen so far, as one value, only ever read whole or written whole (see
    /// ``update(_:)``).
    private var record = Record()

    /// The work in flight (with when it started) and the work already reported.
    private struct Record {
        var inFlight: [(id: Int, name: String, started: VirtualTime)] = []
        var reported: [Int] = []

        /// Records `event`; returns the violation it reveals, if any.
        mutating func observe(_ event: SimEvent, at time: VirtualTime) -> String? {
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
    }

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        update { $0.observe(event, at: time) }
    }

    /// Changes ``record`` through a local copy (taken out, changed, put back), so that every
    /// access to the property is a plain read or write, checked for exclusivity statically (see
    /// ``NoIdleTask``).
    private func update<Result>(_ change: (inout Record) -> Result) -> Result {
        var local = record
        record = Record()
        defer { record = local }
        return change(&local)
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .workStarted, .workFinished, .terminated, .processLaunched, .nothingHeld: true
        default: false
        }
    }
}
