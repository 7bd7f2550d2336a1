import BackgroundTaskKit
import DeterministicSimulation

/// Counts what a run exercised: app states entered, state transitions, event kinds, environment
/// actions, faults and core API calls. Fixed-size arrays during the run (the event loop is hot);
/// a ``Coverage`` value at the end, filled by position into a copy of a template built once.
final class CoverageCounter {
    private static let states = AppProcessState.allCases
    private static let actions = EnvironmentAction.allCases
    private static let lifecycles = LifecycleEvent.allCases
    /// All counters of a run in one flat buffer owned by the counter (allocated once, freed in
    /// `deinit`): states, then transitions (from * states + to), then actions, then event slots.
    /// A bump is a load and a store: no array uniqueness or bounds checks per event (the
    /// indices come from exhaustive switches over fixed enums). The four sections' starts are
    /// kept as pointers, so the hot path reads no lazily initialized statics.
    private let stateCounts: UnsafeMutablePointer<Int>
    private let transitionCounts: UnsafeMutablePointer<Int>
    private let actionCounts: UnsafeMutablePointer<Int>
    private let eventCounts: UnsafeMutablePointer<Int>
    /// The event slots' lifecycle and other sections (see ``slot(of:)``).
    private let lifecycleEventCounts: UnsafeMutablePointer<Int>
    private let otherEventCounts: UnsafeMutablePointer<Int>
    private let stateCount: Int

    init() {
        let stateCount = Self.states.count
        let total = stateCount + stateCount * stateCount + Self.actions.count + Self.slotNames.count
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: total)
        counts.initialize(repeating: 0, count: total)
        self.stateCount = stateCount
        stateCounts = counts
        transitionCounts = counts + stateCount
        actionCounts = transitionCounts + stateCount * stateCount
        eventCounts = actionCounts + Self.actions.count
        lifecycleEventCounts = eventCounts + Self.lifecycleBase
        otherEventCounts = eventCounts + Self.otherBase
    }

    deinit { stateCounts.deallocate() }  // plain integers: nothing to deinitialize

    func observe(_ event: SimEvent) {
        switch event {
        case .stateChanged(let from, let to):
            let fromIndex = from.ordinal
            let toIndex = to.ordinal
            stateCounts[toIndex] &+= 1
            transitionCounts[fromIndex &* stateCount &+ toIndex] &+= 1
            otherEventCounts[event.kindIndex] &+= 1
        case .action(let action):  // its slot is actionBase (0) + index, as in slot(of:)
            let index = action.ordinal
            actionCounts[index] &+= 1
            eventCounts[index] &+= 1
        case .lifecycle(let lifecycle):
            lifecycleEventCounts[lifecycle.ordinal] &+= 1
        default:
            otherEventCounts[event.kindIndex] &+= 1
        }
    }

    /// Event slots: one per action, one per lifecycle event, one per other case. The hot path
    /// indexes an array instead of building the event's name.
    private static let actionBase = 0
    private static let lifecycleBase = actions.count
    private static let otherBase = lifecycleBase + LifecycleEvent.allCases.count

    private static func slot(of event: SimEvent) -> Int {
        switch event {
        case .action(let action): actionBase + action.ordinal
        case .lifecycle(let lifecycle): lifecycleBase + lifecycle.ordinal
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

    /// Which counter feeds an entry of the coverage.
    private enum Source {
        case state(Int), transition(Int), action(Int), event(Int)
    }

    /// Calls `add` for each entry of a run's coverage, in the order they are listed (categories:
    /// states, transitions, actions, faults, events), with the counter that feeds it.
    private static func forEachEntry(_ add: (String, String, Source) -> Void) {
        for (index, state) in states.enumerated() {
            add("states", state.rawValue, .state(index))
            for (toIndex, to) in states.enumerated() where state != to {
                add("transitions", "\(state.rawValue)->\(to.rawValue)", .transition(index * states.count + toIndex))
            }
        }
        for (index, action) in actions.enumerated() {
            add("actions", action.rawValue, .action(index))
            if action.isFault { add("faults", action.rawValue, .action(index)) }
        }
        for slot in slotsByName { add("events", slotNames[slot], .event(slot)) }
    }

    /// Every entry with a zero count, and for each entry the position it is at and the counter
    /// that feeds it: built once per process, so a run's coverage needs no hashing or strings.
    private static let layout: (template: Coverage, feeds: [(position: (category: Int, entry: Int), source: Source)]) = {
        var template = Coverage()
        var feeds: [(position: (category: Int, entry: Int), source: Source)] = []
        forEachEntry { category, name, source in
            template.add(category, name, count: 0)
            feeds.append((template.position(category, name)!, source))
        }
        return (template, feeds)
    }()

    /// The counts as a ``Coverage`` (categories: states, transitions, actions, faults, events).
    func coverage() -> Coverage {
        var coverage = Self.layout.template
        for feed in Self.layout.feeds {
            let count: Int
            switch feed.source {
            case .state(let index): count = stateCounts[index]
            case .transition(let index): count = transitionCounts[index]
            case .action(let index): count = actionCounts[index]
            case .event(let index): count = eventCounts[index]
            }
            // Adding zero changes nothing; skipping it spares the copy-on-write of every category
            // a run never touched (most transitions, most actions).
            if count != 0 { coverage.add(count: count, at: feed.position) }
        }
        return coverage
    }
}
