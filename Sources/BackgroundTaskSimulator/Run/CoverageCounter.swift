import BackgroundTaskKit
import DeterministicSimulation

/// Counts what a run exercised: app states entered, state transitions, event kinds, environment
/// actions, faults and core API calls. Fixed-size arrays during the run (the event loop is hot);
/// a ``Coverage`` value at the end.
final class CoverageCounter {
    private static let states = AppProcessState.allCases
    private static let actions = EnvironmentAction.allCases
    private static let lifecycles = LifecycleEvent.allCases
    private var stateCounts = [Int](repeating: 0, count: states.count)
    private var transitionCounts = [Int](repeating: 0, count: states.count * states.count)
    private var actionCounts = [Int](repeating: 0, count: actions.count)
    private var eventCounts = [Int](repeating: 0, count: slotNames.count)

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
        eventCounts[Self.slot(of: event)] += 1
    }

    /// Event slots: one per action, one per lifecycle event, one per other case. The hot path
    /// indexes an array instead of building the event's name.
    private static let actionBase = 0
    private static let lifecycleBase = actions.count
    private static let otherBase = lifecycleBase + LifecycleEvent.allCases.count

    private static func slot(of event: SimEvent) -> Int {
        switch event {
        case .action(let action): actionBase + action.index
        case .lifecycle(let lifecycle): lifecycleBase + Self.lifecycles.firstIndex(of: lifecycle)!
        default: otherBase + event.kindIndex
        }
    }

    /// The event name of each slot (every slot a run can fill; names of the other cases come
    /// from a representative event of that case).
    private static let slotNames: [String] = {
        var names = [String](repeating: "", count: otherBase + SimEvent.kindCount)
        for event in SimEvent.representatives { names[slot(of: event)] = event.name }
        for action in actions { names[slot(of: .action(action))] = SimEvent.action(action).name }
        for lifecycle in LifecycleEvent.allCases { names[slot(of: .lifecycle(lifecycle))] = SimEvent.lifecycle(lifecycle).name }
        return names
    }()

    /// Slots in the order of their names (coverage lists events sorted by name).
    private static let slotsByName: [Int] = slotNames.indices
        .filter { !slotNames[$0].isEmpty }
        .sorted { slotNames[$0] < slotNames[$1] }

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
        for slot in Self.slotsByName {
            coverage.add("events", Self.slotNames[slot], count: eventCounts[slot])
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
