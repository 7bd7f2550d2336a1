public import DeterministicSimulation

/// What every checker needs to word its messages: the app's state and the tasks it holds, kept
/// up to date from the event stream before the checkers see each event.
///
/// Contract: it is derived only from events, so a checker sees the same facts on replay.
public final class RunFacts {
    // Hot state is @exclusivity(unchecked): a run is confined to one thread and no access to
    // it spans a call that could reach it again; the dynamic check cost more than the access.
    /// The app's state as of the last event.
    @exclusivity(unchecked) public private(set) var state: AppProcessState = .notRunning
    /// The current process number, 0 before the first launch.
    @exclusivity(unchecked) public private(set) var process = 0
    /// UIKit tasks the current process holds, in begin order, with their names and begin times.
    @exclusivity(unchecked) public private(set) var openTasks: [(id: Int, name: String, began: VirtualTime)] = []

    public init() {}

    /// Takes in one event.
    public func observe(_ event: SimEvent, at time: VirtualTime) {
        switch event {
        case .processLaunched(let number, _):
            process = number
            openTasks = []
        case .stateChanged(_, let to):
            state = to
        case .taskBegan(let id, let name, _):
            openTasks.append((id, name, time))
        case .taskEnded(let id, _):
            openTasks.removeEach { $0.id == id }
        case .terminated:
            openTasks = []
        default:
            break
        }
    }

    /// `task 3 ("upload", begun at 2.000000s)`, or `task 3` if it is not open.
    public func describeTask(_ id: Int) -> String {
        guard let task = openTasks.first(where: { $0.id == id }) else { return "task \(id)" }
        return "task \(id) (\"\(task.name)\", begun at \(task.began))"
    }
}
