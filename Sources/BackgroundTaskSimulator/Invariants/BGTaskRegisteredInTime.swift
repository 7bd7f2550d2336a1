import DeterministicSimulation

/// `bgtask-registered-in-time`: every BGTaskScheduler launch handler is registered before the
/// app finishes launching, once per identifier, and before a request for it is submitted or
/// launched (C1.1, C1.3, C1.4, C2.4). Any of these mistakes crashes the app with
/// `NSInternalInconsistencyException`; the checker reports the crash in those terms.
///
/// Excuses nothing, and needs no excuse: each crash comes from the app's own `register` or
/// `submit` call, and every process registers again at launch (C1.6), whatever ended the last one.
final class BGTaskRegisteredInTime: EventFilteringChecker {
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

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .terminated: true
        default: false
        }
    }
}
