import DeterministicSimulation

/// Counts what a run exercised: app states entered, state transitions, event kinds, environment
/// actions, faults and core API calls. Fixed-size arrays during the run (the event loop is hot);
/// a ``Coverage`` value at the end.
final class CoverageCounter {
    private static let states = AppProcessState.allCases
    private static let actions = EnvironmentAction.allCases
    private var stateCounts = [Int](repeating: 0, count: states.count)
    private var transitionCounts = [Int](repeating: 0, count: states.count * states.count)
    private var actionCounts = [Int](repeating: 0, count: actions.count)
    private var eventCounts: [String: Int] = [:]

    func observe(_ event: SimEvent) {
        switch event {
        case .stateChanged(let from, let to):
            let fromIndex = Self.states.firstIndex(of: from)!
            let toIndex = Self.states.firstIndex(of: to)!
            stateCounts[toIndex] += 1
            transitionCounts[fromIndex * Self.states.count + toIndex] += 1
        case .action(let action):
            actionCounts[Self.actions.firstIndex(of: action)!] += 1
        default:
            break
        }
        eventCounts[event.name, default: 0] += 1
    }

    /// The counts as a ``Coverage`` (categories: states, transitions, actions, faults, events).
    func coverage() -> Coverage {
        var coverage = Coverage()
        for (index, state) in Self.states.enumerated() {
            coverage.add("states", state.rawValue, count: stateCounts[index])
            for (toIndex, to) in Self.states.enumerated() where state != to {
                coverage.add("transitions", "\(state.rawValue)->\(to.rawValue)",
                             count: transitionCounts[index * Self.states.count + toIndex])
            }
        }
        for (index, action) in Self.actions.enumerated() {
            coverage.add("actions", action.rawValue, count: actionCounts[index])
            if action.isFault { coverage.add("faults", action.rawValue, count: actionCounts[index]) }
        }
        for name in SimEvent.allNames {
            coverage.add("events", name, count: eventCounts[name] ?? 0)
        }
        return coverage
    }
}

extension EnvironmentAction {
    /// Whether the action is a system fault rather than a user action.
    public var isFault: Bool {
        switch self {
        case .memoryPressureKill, .earlyExpiry, .backgroundRefreshOff, .networkDown, .expireBackgroundTask,
             .sceneDisconnect, .userCancelsContinuedTask, .forceQuit:
            true
        default:
            false
        }
    }
}
