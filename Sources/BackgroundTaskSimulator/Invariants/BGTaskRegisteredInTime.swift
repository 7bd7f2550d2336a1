import DeterministicSimulation

/// `bgtask-registered-in-time`: every BGTaskScheduler launch handler is registered before the
/// app finishes launching, once per identifier, and before a request for it is submitted or
/// launched (C1.1, C1.3, C1.4, C2.4). Any of these mistakes crashes the app with
/// `NSInternalInconsistencyException`; the checker reports the crash in those terms.
///
/// Excuses nothing, and needs no excuse: each crash comes from the app's own `register` or
/// `submit` call, and every process registers again at launch (C1.6), whatever ended the last one.
/// A continued-processing identifier is registered just before its request is submitted (C6.2),
/// so a new process could not have registered one queued by the process before it; by default
/// such a request dies with its process
/// (``OSProfile/continuedProcessingQueueOutlivesProcess``), and no launch reaches a process
/// that could not have registered it.
final class BGTaskRegisteredInTime: EventFilteringChecker {
    /// Each crash's reason, and how to fix it.
    static let reasons: [(reason: String, fix: String)] = [
        ("All launch handlers must be registered before application finishes launching",
         "register every launch handler in application(_:didFinishLaunchingWithOptions:) (C1.4)"),
        ("has already been registered",
         "register each identifier once per process; a continued-processing request needs a fresh identifier "
            + "under its wildcard each time (C1.3, C6.2)"),
        ("No launch handler registered for task with identifier",
         "register the launch handler before submitting its request, and again at every launch (C1.6, C2.4)"),
    ]

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .terminated(.exception(let name, let reason), _) = event,
            let fix = Self.reasons.first(where: { reason.contains($0.reason) })?.fix
        else { return nil }
        return "the app crashed at \(time) (app \(facts.state)): \(name): '\(reason)'; \(fix)"
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .terminated: true
        default: false
        }
    }
}
