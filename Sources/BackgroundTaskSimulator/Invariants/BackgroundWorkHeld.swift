import DeterministicSimulation

/// `background-work-held`: no declared work is in flight while the app is in the background with
/// nothing holding it awake (no UIKit task, no BGTask), because the app is about to be suspended
/// under it (B2.3, A1.1). Catches released tokens (P5) and work started without a task.
///
/// At an expiry (A3.1-A3.3) the app must end its tasks inside the expiration handlers (A3.2), so
/// it cannot hold a task until its work ends; what it can do is cancel the work there. Work in
/// flight when the last task ends inside the callout is therefore judged when the app is next
/// suspended (B2.3), not at the end: work that ended by then (cancelled, and winding down in the
/// jobs after the handlers, which the scheduler may delay) is excused; work still running is
/// reported. Before, such work was reported at the end itself, against apps that cancel their
/// work and end the task in the handler as Apple says to (a retry loop whose `catch` cancels
/// its declared work, found 2026-11-30); and then at the next time nothing was held, which a
/// new background entry right after a return to the foreground can bring before the suspension
/// (an export whose cancelled chunk took a preemption delay to stop, found the same day).
///
/// The same holds for a BGTask the system expires (C4.4): its expiration handler must cancel the
/// work and complete the task (C4.6), and cannot wait for the cancellation to land. So work in
/// flight when the last thing held is a BGTask completed after its expiry began is judged at the
/// suspension too (found by a probe: a processing task expired by opening the app, completed in
/// its handler as Apple's sample and the kit's `registerAsync` do, with its request's cancellation
/// landing 45 ms later on the task's thread, was reported in 4 of 1,000 runs).
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

    /// The work in flight (with when it started, and whether an end inside an expiration callout
    /// left it so), the work already reported, whether the expiration handlers are being called,
    /// and when such an end was. Every field the work list does not hold is trivial: the record
    /// is moved out and back on every event (``update(_:)``), and a string or array more cost
    /// a retain and a release each time.
    private struct Record {
        typealias Work = (id: Int, name: String, started: VirtualTime, leftAtExpiry: Bool)
        var inFlight: [Work] = []
        var reported: [Int] = []
        /// Between `expirationCallout` and `expirationHandlersReturned`.
        var inExpiryCallout = false
        /// When nothing was held any more inside an expiration callout with work in flight (the
        /// work marked `leftAtExpiry`), until that work is judged at the suspension
        /// (``judgeExpiryEnd(at:)``).
        var expiryEnd: VirtualTime?
        /// The event just observed completed a BGTask whose expiry had begun (the `nothingHeld`
        /// that may follow is an end the app could not avoid, as one inside an expiration callout).
        var completedAtBGTaskExpiry = false

        /// Records `event` (`completesExpiringTask`: it completes a BGTask whose expiry began;
        /// `lastEnded`: the UIKit task the process ended last, and when); returns the violation it
        /// reveals, if any.
        mutating func observe(_ event: SimEvent, at time: VirtualTime, completesExpiringTask: Bool,
                              lastEnded: (task: Int, at: VirtualTime)?) -> String? {
            let afterBGTaskExpiry = completedAtBGTaskExpiry
            completedAtBGTaskExpiry = completesExpiringTask
            switch event {
            case .workStarted(let id, let name):
                inFlight.append((id, name, time, false))
            case .workFinished(let id, _, _):
                inFlight.removeEach { $0.id == id }
            case .terminated, .processLaunched:
                inFlight = []
                expiryEnd = nil
            case .expirationCallout:
                inExpiryCallout = true
            case .expirationHandlersReturned:
                inExpiryCallout = false
            case .nothingHeld(let reason):
                // At the suspension (B2.3), work an expiry left in flight is judged.
                let expiryVerdict = reason == HeldWorkReasons.suspended ? judgeExpiryEnd(at: time) : nil
                let fresh = inFlight.filter { !reported.contains($0.id) }
                guard !fresh.isEmpty else { return expiryVerdict }
                reported += fresh.map(\.id)
                if inExpiryCallout || afterBGTaskExpiry {
                    // The app could not keep the task (A3.2, C4.6): see whether the work stops
                    // with it.
                    for index in inFlight.indices where fresh.contains(where: { $0.id == inFlight[index].id }) {
                        inFlight[index].leftAtExpiry = true
                    }
                    expiryEnd = expiryEnd ?? time
                    return expiryVerdict
                }
                var cause = ""
                if let ended = lastEnded, ended.at < time, fresh.contains(where: { $0.started <= ended.at }) {
                    cause = " (background task \(ended.task) was ended at \(ended.at) while it ran)"
                }
                let verdict = "work \(Self.list(fresh)) was still running at \(time) when \(reason)\(cause), with no "
                    + "background task held in the background: the app would be suspended under it; hold a task until "
                    + "the work ends"
                return expiryVerdict.map { $0 + "; " + verdict } ?? verdict
            default:
                break
            }
            return nil
        }

        /// The app is suspended (or the run ends): the violation if work an end inside an
        /// expiration callout left in flight is still running.
        mutating func judgeExpiryEnd(at time: VirtualTime) -> String? {
            guard let end = expiryEnd, time > end else { return nil }
            expiryEnd = nil
            let running = inFlight.filter(\.leftAtExpiry)
            guard !running.isEmpty else { return nil }
            for index in inFlight.indices { inFlight[index].leftAtExpiry = false }
            return "work \(Self.list(running)) was still running at \(time), after the last background task ended in "
                + "its expiration handler at \(end) with the work in flight: the app is suspended once the handlers "
                + "return (A3.1); cancel the work in the expiration handler so that it stops with the task"
        }

        static func list(_ work: [Work]) -> String {
            work.map { "'\($0.name)' (started at \($0.started))" }.joined(separator: ", ")
        }
    }

    /// BGTasks the system is expiring with an expiration handler, until they are completed. Kept
    /// out of ``record``: an array there would cost a retain and a release at every event.
    private var expiringBGTasks: [Int] = []
    /// The UIKit task the process ended last, and when: a finding at a later moment (a background
    /// entry that found nothing held) names it when it ended under the work, which is where the
    /// bug is (probe 6: "when didEnterBackground returned" named only the entry, long after the
    /// task that covered the work had been ended in the foreground). Out of ``record`` too: an
    /// optional there made every event's move of the record a copy through its value witnesses
    /// (+1.7% instructions on the token workload).
    private var lastEnded: (task: Int, at: VirtualTime)?

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        // Judged only at the events it observes, so the verdict is the same whether or not the
        // run monitor filters events (CheckerFilteringTests).
        guard Self.observes(event) else { return nil }
        var completesExpiringTask = false
        switch event {
        case .taskEnded(let id, _):
            lastEnded = (id, time)
            return nil
        case .bgTaskExpiring(_, let task, let hasHandler):
            if hasHandler { expiringBGTasks.append(task) }
        case .bgTaskCompleted(_, let task, _, _):
            completesExpiringTask = expiringBGTasks.contains(task)
            expiringBGTasks.removeEach { $0 == task }
        case .terminated, .processLaunched:
            if !expiringBGTasks.isEmpty { expiringBGTasks = [] }
            lastEnded = nil
        default:
            break
        }
        let ended = lastEnded
        return update { $0.observe(event, at: time, completesExpiringTask: completesExpiringTask, lastEnded: ended) }
    }

    func finish(at time: VirtualTime, facts: RunFacts) -> [String] {
        update { $0.judgeExpiryEnd(at: time) }.map { [$0] } ?? []
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
        case .workStarted, .workFinished, .terminated, .processLaunched, .nothingHeld, .expirationCallout,
            .expirationHandlersReturned, .bgTaskExpiring, .bgTaskCompleted, .taskEnded:
            true
        default: false
        }
    }
}
