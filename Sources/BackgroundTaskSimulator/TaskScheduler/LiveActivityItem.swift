/// One Live Activity the system shows for a continued-processing task (C6.6): its title and
/// subtitle, and whether the task is running, finished or failed.
///
/// ```swift
/// let items = context.taskScheduler.liveActivities
/// // after a failed export and a resubmit of the same identifier (C6.10):
/// // [export (failed), export (running)]
/// ```
///
/// Contract: the system adds an item each time a continued-processing task starts, also for an
/// identifier that had one before: a resubmit after a failure shows two items, the failed one
/// and the new one, instead of replacing the first (C6.10, observed and confirmed by DTS,
/// forum thread 808756); cancelling the request does not remove a failed item (C3.5). An item
/// is `failed` when its task completed unsuccessfully or expired (the user's cancel, a stall,
/// C6.8); a successful completion marks it `finished`. The simulator never removes items: the
/// person dismisses them, which it does not simulate.
public struct LiveActivityItem: Sendable, Equatable, CustomStringConvertible {
    /// What the item shows about its task.
    public enum State: String, Sendable {
        case running
        case finished
        case failed
    }

    /// The task's identifier.
    public var identifier: String
    /// The task's number in the run (``SimulatedBGTask/number``).
    public var task: Int
    public var title: String
    public var state: State

    public var description: String { "\(identifier) (\(state.rawValue))" }
}

extension TaskSchedulerService {
    /// A continued-processing task started: a new item (C6.10: never replacing an earlier one).
    func showLiveActivity(for task: SimulatedBGTask) {
        guard case .continuedProcessing(let title, _, _) = task.kind else { return }
        liveActivities.append(LiveActivityItem(identifier: task.identifier, task: task.number, title: title,
                                               state: .running))
    }

    /// The task completed: its item shows the outcome (C6.10: a failure stays on screen).
    func settleLiveActivity(for task: SimulatedBGTask, success: Bool) {
        guard let index = liveActivities.lastIndex(where: { $0.task == task.number }) else { return }
        liveActivities[index].state = success ? .finished : .failed
    }
}
