import BackgroundTaskKit
import DeterministicSimulation

/// `refresh-stays-scheduled`: a repeating refresh is resubmitted from its launch handler on
/// every path, so the chain never stops (C3.6: a launch consumes the request; C4.6). Judged when
/// each such task completes (was a new request submitted, or at least attempted, since the
/// launch?) and, as a liveness check, at the end of the run (is one pending?).
///
/// A cancel outside a running refresh task is the app's decision to stop refreshing (excused); a
/// cancel from inside one, while it runs, withdraws the next request it submitted: the task then
/// completes without one, a violation.
///
/// Only the user's choice excuses a stopped chain: a last submit that failed with
/// `unavailable` (Background App Refresh off, or no BGTaskScheduler: C2.3). A submit that failed
/// with a programming error (`tooManyPendingTaskRequests` from a second refresh identifier,
/// C2.2; `notPermitted` from a missing Info.plist entry, C2.3) and was swallowed, so that no
/// request is pending at the end, is a violation that names the error and its fix. An app that
/// handles the error (retries later, or uses one identifier) ends with a request pending.
///
/// What it excuses, and why: a stopped chain the app had no chance to prevent, until a new
/// process has had its chance to submit again (a correct app submits on every launch):
/// - the system dropped the pending request (an app update, C3.7; a dropped submit, C2.5);
/// - the process ended for a reason the app cannot prevent (force-quit B3.2, jetsam B3.4, reboot
///   B3.1, app update C3.7) after the system launched the task and before its launch handler was
///   called: the launch consumed the request (C3.6) and no line of the app's code ran. The
///   simulator records it as the probe ``SimulatedBGTask/handlerNeverRanProbe(_:)``;
/// - the same kill while the launch handler was still running, before it returned (with
///   threads the scheduler can keep its thread off the CPU between its first lines, the
///   expiration handler set and the resubmission: ``SimulatedBGTask/handlerCutShortProbe(_:)``).
///
/// A handler that returned without resubmitting and whose process then ended (one that submits
/// only when its work succeeds, P8) is still a violation: it had its chance, and resubmitting
/// at its first line would have kept the chain. A handler that resubmits only after long
/// synchronous work in the handler itself, killed during that work, is excused with the rest.
///
/// ```swift
/// // Excused: launch, home, the refresh task launched, force-quit before the handler runs.
/// // Found: the handler runs, starts its work, and the app is jettisoned before it resubmits.
/// scheduler.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
///     fetch { schedule(); task.setTaskCompleted(success: true) }   // resubmits only at the end
/// }
/// ```
final class RefreshStaysScheduled: EventFilteringChecker {
    private let identifiers: [String]
    private var pending: [String] = []
    /// Launched tasks of a repeating identifier and whether a resubmission was attempted since.
    private var awaiting: [(task: Int, identifier: String, attempted: Bool)] = []
    /// Identifiers the app has tried to schedule (a chain it meant to keep going).
    private var chainStarted: [String] = []
    /// Identifiers whose last submit failed with `unavailable`: the user's choice, excused.
    private var lastSubmitFailed: [String] = []
    /// Identifiers whose last submit failed with a programming error, the error and its time.
    private var lastSubmitError: [(identifier: String, error: String, time: VirtualTime)] = []
    /// Identifiers whose chain the system stopped with no process launched since: a pending
    /// request it dropped (an app update, C3.7; a dropped submit, C2.5), or a launch whose process
    /// ended before its handler ran, for a reason the app cannot prevent. The app has had no
    /// chance to resubmit yet.
    private var stoppedBySystem: [String] = []
    /// Whether the last process ended for a reason the app could not prevent.
    private var lastEndUnpreventable = false
    /// Identifiers the system ever dropped a request of (for the message).
    private var everDropped: [String] = []
    /// Running tasks that cancelled their own next request, and when.
    private var withdrawn: [(task: Int, time: VirtualTime)] = []

    init(identifiers: [String]) { self.identifiers = identifiers }

    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        switch event {
        case .requestSubmitted(let identifier, _, let error):
            guard identifiers.contains(identifier) else { return nil }
            for index in awaiting.indices where awaiting[index].identifier == identifier {
                awaiting[index].attempted = true
            }
            lastSubmitFailed.removeAll { $0 == identifier }
            lastSubmitError.removeAll { $0.identifier == identifier }
            if let error, Self.isUsersChoice(error) {
                lastSubmitFailed.append(identifier)
                return nil
            }
            if !chainStarted.contains(identifier) { chainStarted.append(identifier) }
            if let error {
                lastSubmitError.append((identifier, error, time))
            } else if !pending.contains(identifier) {
                pending.append(identifier)
            }
        case .requestCancelled(let identifier):
            if identifier == "*" { pending = [] } else { pending.removeAll { $0 == identifier } }
            let running = awaiting.indices.filter { identifier == "*" || awaiting[$0].identifier == identifier }
            if running.isEmpty {
                chainStarted.removeAll { identifier == "*" || $0 == identifier }  // the app stops its refresh
            } else {
                // A refresh task withdrawing its own next request stops the chain from inside.
                for index in running {
                    awaiting[index].attempted = false
                    withdrawn.append((awaiting[index].task, time))
                }
            }
        case .bgTaskLaunched(let identifier, let task, _):
            guard identifiers.contains(identifier) else { return nil }
            pending.removeAll { $0 == identifier }
            awaiting.append((task, identifier, false))
        case .bgTaskCompleted(let identifier, let task, _, let repeated):
            guard !repeated, let index = awaiting.firstIndex(where: { $0.task == task }) else { return nil }
            let entry = awaiting.remove(at: index)
            if !entry.attempted, let withdrawal = withdrawn.first(where: { $0.task == task }) {
                return "refresh task \(task) (\(identifier)) cancelled its own next request at \(withdrawal.time) and "
                    + "completed at \(time): the chain of refreshes stops; keep the request pending (iOS already "
                    + "holds launches back when it must, as in Low Power Mode)"
            }
            if !entry.attempted {
                return "refresh task \(task) (\(identifier)) completed at \(time) without submitting the next "
                    + "request: the chain of refreshes stops; resubmit at the start of the launch handler"
            }
        case .terminated(let reason, _):
            awaiting = []
            lastEndUnpreventable = !reason.isPreventable
        case .probe(let name):  // right after `terminated`: a launch whose handler never ran, or was cut short
            guard lastEndUnpreventable,
                let identifier = identifiers.first(where: {
                    name == SimulatedBGTask.handlerNeverRanProbe($0) || name == SimulatedBGTask.handlerCutShortProbe($0)
                })
            else { return nil }
            if !stoppedBySystem.contains(identifier) { stoppedBySystem.append(identifier) }
        case .requestDropped(let identifier):  // C2.5, C3.7: gone without the app's knowledge
            guard identifiers.contains(identifier) else { return nil }
            pending.removeAll { $0 == identifier }
            if !stoppedBySystem.contains(identifier) { stoppedBySystem.append(identifier) }
            if !everDropped.contains(identifier) { everDropped.append(identifier) }
        case .processLaunched:
            stoppedBySystem = []  // a new process can (and must) schedule again
        default:
            break
        }
        return nil
    }

    func finish(at time: VirtualTime, facts: RunFacts) -> [String] {
        identifiers.compactMap { identifier in
            guard chainStarted.contains(identifier), !pending.contains(identifier),
                !lastSubmitFailed.contains(identifier), !awaiting.contains(where: { $0.identifier == identifier }),
                !stoppedBySystem.contains(identifier)
            else { return nil }
            if let failure = lastSubmitError.first(where: { $0.identifier == identifier }) {
                return "no \(identifier) refresh request is pending at the end of the run (\(time)): its last "
                    + "submit failed at \(failure.time) with \(failure.error) and the error was swallowed; "
                    + Self.fix(for: failure.error)
            }
            let dropped = everDropped.contains(identifier)
                ? " (the system dropped a pending request, as an app update does (C3.7); submit it again on every launch)"
                : ""
            return "no \(identifier) refresh request is pending at the end of the run (\(time)): "
                + "the repeating refresh stopped" + dropped
        }
    }

    /// Whether a submit error is the user's choice or the device's (never the app's mistake).
    static func isUsersChoice(_ error: String) -> Bool {
        error == "\(TaskSchedulerError.unavailable)"
    }

    /// What the app should do about a submit error it cannot ignore.
    static func fix(for error: String) -> String {
        if error == "\(TaskSchedulerError.tooManyPendingTaskRequests)" {
            return "an app has at most one pending refresh request (C2.2): refresh everything from one "
                + "identifier, or handle the error instead of dropping it with try?"
        }
        if error == "\(TaskSchedulerError.notPermitted)" {
            return "list the identifier under BGTaskSchedulerPermittedIdentifiers and enable the matching "
                + "background mode (C2.3)"
        }
        return "handle the submit error instead of dropping it with try?"
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .requestSubmitted, .requestCancelled, .bgTaskLaunched, .bgTaskCompleted, .terminated,
            .requestDropped, .processLaunched, .probe: true
        default: false
        }
    }
}
