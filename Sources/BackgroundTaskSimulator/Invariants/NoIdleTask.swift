import DeterministicSimulation

/// `no-idle-task`: no background task and no launched BGTask is held in the background for
/// longer than the profile's ``OSProfile/idleTaskLimit`` while no declared work is in flight.
///
/// ```swift
/// let checker = NoIdleTask(limit: .seconds(10))   // made by Invariant.all for every run
/// ```
///
/// An idle hold is a bug the app can prevent: the task only burns the app's background time,
/// which all its tasks share (A4.5), and past 30 s iOS logs the A6.1 warning. Typical causes: a
/// token kept alive by a reference cycle through its own expiration handler, an operation that
/// never finishes so a sequential chain stalls with the queue's task held, a BGTask whose work is
/// done but which is never completed. Judged when the idle stretch ends (an end, an expiry, new
/// work, a kill) and at the end of the run; reported once per stretch. Only time in the
/// background counts (in the foreground the budget does not run, A4.6).
///
/// Excuses a hold its process's end cut short (the record is cleared at every termination), and
/// time in the foreground. Needs no other excuse: the time judged runs only while the app could
/// end or complete the task; a BGTask expired before its launch handler ran still gets its
/// expiration handler (the callout runs behind the launch handler, C4.4).
final class NoIdleTask: EventFilteringChecker {
    private let limit: VirtualDuration
    /// What it has seen so far, as one value, only ever read whole or written whole (see
    /// ``update(_:)``).
    private var record = Record()

    /// The tasks and BGTasks held, the work in flight, whether the app is in the background, and
    /// when the current idle stretch began (nil: not idle).
    private struct Record {
        var tasks: [(id: Int, name: String)] = []
        var bgTasks: [(task: Int, identifier: String)] = []
        var inFlight = 0
        var inBackground = false
        var idleSince: VirtualTime?

        /// Judges the stretch so far, then records `event`; returns the verdict.
        mutating func observe(_ event: SimEvent, at time: VirtualTime, limit: VirtualDuration) -> String? {
            let verdict = judge(at: time, limit: limit)
            switch event {
            case .taskBegan(let id, let name, _): tasks.append((id, name))
            case .taskEnded(let id, _): tasks.removeAll { $0.id == id }
            case .bgTaskLaunched(let identifier, let task, _): bgTasks.append((task, identifier))
            case .bgTaskCompleted(_, let task, _, _): bgTasks.removeAll { $0.task == task }
            case .workStarted: inFlight += 1
            case .workFinished: inFlight = max(0, inFlight - 1)
            case .stateChanged(_, let to): inBackground = to == .background
            case .terminated, .processLaunched:
                tasks = []
                bgTasks = []
                inFlight = 0
                inBackground = false
            default: break
            }
            let idle = inBackground && inFlight == 0 && !(tasks.isEmpty && bgTasks.isEmpty)
            if !idle {
                idleSince = nil
            } else if idleSince == nil {
                idleSince = time
            }
            return verdict
        }

        /// The violation if the current idle stretch has lasted longer than `limit` by `time`
        /// (reported once: the stretch is then closed).
        mutating func judge(at time: VirtualTime, limit: VirtualDuration) -> String? {
            guard let since = idleSince, time - since > limit else { return nil }
            idleSince = nil
            let held = tasks.map { "task \($0.id) ('\($0.name)')" } + bgTasks.map { "BGTask \($0.task) (\($0.identifier))" }
            return "\(held.joined(separator: ", ")) held in the background from \(since) to \(time) with no work in "
                + "flight (longer than \(limit)): end the task (or complete the BGTask) as soon as its work is done, "
                + "and do not hold it through a long wait (a retry's backoff: end it and retry on the next launch or "
                + "in a BGTask); an idle task only burns the app's background time"
        }
    }

    init(limit: VirtualDuration) { self.limit = limit }

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        // Judged only at the events it observes, so the verdict is the same whether or not the
        // run monitor filters events (CheckerFilteringTests).
        guard Self.observes(event) else { return nil }
        return update { $0.observe(event, at: time, limit: limit) }
    }

    func finish(at time: VirtualTime, facts: RunFacts) -> [String] {
        update { $0.judge(at: time, limit: limit) }.map { [$0] } ?? []
    }

    /// Changes ``record`` through a local copy: taken out (an empty record left in its place, so
    /// the copy's arrays stay unshared and change in place), changed, put back. Every access to
    /// the property is then a plain read or write, which the compiler checks for exclusivity
    /// statically; changing it in place (a mutating call on a class's stored property) cost a
    /// dynamic check per event.
    private func update<Result>(_ change: (inout Record) -> Result) -> Result {
        var local = record
        record = Record()
        defer { record = local }
        return change(&local)
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .taskBegan, .taskEnded, .bgTaskLaunched, .bgTaskCompleted, .workStarted, .workFinished, .stateChanged,
            .terminated, .processLaunched:
            true
        default: false
        }
    }
}
