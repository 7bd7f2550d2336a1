public import DeterministicSimulation

/// What every checker needs to word its messages: the app's state and the tasks it holds, kept
/// up to date from the event stream before the checkers see each event.
///
/// Contract: it is derived only from events, so a checker sees the same facts on replay.
public final class RunFacts {
    /// The app's state as of the last event.
    public var state: AppProcessState { appState }
    /// The current process number, 0 before the first launch.
    public var process: Int { processNumber }
    /// UIKit tasks the current process holds, in begin order, with their names and begin times.
    public var openTasks: [(id: Int, name: String, began: VirtualTime)] { tasks }

    // Stored privately behind read-only properties: with every access in this module, the
    // optimizer drops the dynamic exclusivity checks of the plain loads and stores.
    private var appState: AppProcessState = .notRunning
    private var processNumber = 0
    private var tasks: [(id: Int, name: String, began: VirtualTime)] = []

    public init() {}

    /// Takes in one event.
    public func observe(_ event: SimEvent, at time: VirtualTime) {
        switch event {
        case .processLaunched(let number, _):
            processNumber = number
            tasks = []
        case .stateChanged(_, let to):
            appState = to
        case .taskBegan(let id, let name, _):
            var open = takeTasks()
            open.append((id, name, time))
            tasks = open
        case .taskEnded(let id, _):
            var open = takeTasks()
            open.removeEach { $0.id == id }
            tasks = open
        case .terminated:
            tasks = []
        default:
            break
        }
    }

    /// The open tasks taken out of their stored property, an empty list left in its place, so that
    /// a begin or an end changes a local array (unshared, so in place) and the property sees only
    /// plain loads and stores: changing it in place was a run-time exclusivity check per begin and
    /// per end.
    private func takeTasks() -> [(id: Int, name: String, began: VirtualTime)] {
        let open = tasks
        tasks = []
        return open
    }

    /// `task 3 ("upload", begun at 2.000000s)`, or `task 3` if it is not open.
    public func describeTask(_ id: Int) -> String {
        guard let task = tasks.first(where: { $0.id == id }) else { return "task \(id)" }
        return "task \(id) (\"\(task.name)\", begun at \(task.began))"
    }
}
