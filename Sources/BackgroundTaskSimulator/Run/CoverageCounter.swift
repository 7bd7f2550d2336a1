import BackgroundTaskKit
import DeterministicSimulation

/// Counts what a run exercised: app states entered, state transitions, event kinds, environment
/// actions, faults, (app state, event) pairs and invariant-relevant conditions
/// (``CoverageCondition``). Fixed-size arrays during the run (the event loop is hot);
/// a ``Coverage`` value at the end, filled by position into a copy of a template built once.
final class CoverageCounter {
    private static let states = AppProcessState.allCases
    private static let actions = EnvironmentAction.allCases
    /// All counters of a run in one flat buffer owned by the counter (allocated once, freed in
    /// `deinit`): states, then transitions (from * states + to), then event slots. A bump is a
    /// load and a store: no array uniqueness or bounds checks per event (the indices come from
    /// exhaustive switches over fixed enums). The sections' starts are kept as pointers, so the
    /// hot path reads no lazily initialized statics.
    private let stateCounts: UnsafeMutablePointer<Int>
    private let transitionCounts: UnsafeMutablePointer<Int>
    private let eventCounts: UnsafeMutablePointer<Int>
    /// (state, event slot) pairs: `state ordinal * slot count + slot`, the state as of the event
    /// (after a state change: the state entered).
    private let stateEventCounts: UnsafeMutablePointer<Int>
    private let conditionCounts: UnsafeMutablePointer<Int>
    /// The conditions' state, behind a pointer of its own (allocated with the counts): as a
    /// stored `var` of this class each update was a dynamic exclusivity check, 5 M instructions
    /// in 300 token runs. Only ``observe(_:facts:)`` touches it, never reentrantly.
    private let conditions: UnsafeMutablePointer<ConditionState>
    /// ``ConditionState/kindMask``, held by the counter (no lazily initialized static per event).
    private let conditionKinds = ConditionState.kindMask
    private let slotCount: Int
    /// ``slotBases``, held by the counter for the same reason.
    private let slotBases: [Int]
    private let stateCount: Int
    /// Probes hit in this run (`WorkloadContext.probe(_:)`), in first-hit order: a handful at
    /// most, so a linear search; empty in the runs of workloads that mark no probe.
    private var probes: [(name: String, count: Int)] = []

    init() {
        let stateCount = Self.states.count
        let slotCount = Self.slotNames.count
        let total = stateCount + stateCount * stateCount + slotCount + stateCount * slotCount
            + CoverageCondition.ordered.count
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: total)
        counts.initialize(repeating: 0, count: total)
        self.stateCount = stateCount
        stateCounts = counts
        transitionCounts = counts + stateCount
        eventCounts = transitionCounts + stateCount * stateCount
        stateEventCounts = eventCounts + slotCount
        conditionCounts = stateEventCounts + stateCount * slotCount
        self.slotCount = slotCount
        slotBases = Self.slotBases
        conditions = UnsafeMutablePointer<ConditionState>.allocate(capacity: 1)
        conditions.initialize(to: ConditionState())
    }

    deinit {
        stateCounts.deallocate()  // plain integers: nothing to deinitialize
        conditions.deinitialize(count: 1)
        conditions.deallocate()
    }

    /// Counts the event's slot (its kind and variant, from ``SimEvent/describe(to:)``) and its
    /// (state, event) pair, for a state change the state entered and the transition, and the
    /// conditions the event reaches. `facts` have taken the event in already.
    func observe(_ event: SimEvent, facts: RunFacts) {
        if case .stateChanged(let from, let to) = event {
            let toIndex = to.ordinal
            stateCounts[toIndex] &+= 1
            transitionCounts[from.ordinal &* stateCount &+ toIndex] &+= 1
        }
        var slot = SimEvent.Slot()
        event.describe(to: &slot)
        let eventSlot = slotBases[slot.kind.rawValue] &+ slot.variant
        eventCounts[eventSlot] &+= 1
        stateEventCounts[facts.state.ordinal &* slotCount &+ eventSlot] &+= 1
        if (conditionKinds >> UInt64(slot.kind.rawValue)) & 1 != 0 {
            let conditionCounts = conditionCounts
            conditions.pointee.observe(event, facts: facts) { conditionCounts[$0.ordinal] &+= 1 }
        }
        if case .probe(let name) = event { countProbe(name) }
    }

    private func countProbe(_ name: String) {
        if let index = probes.firstIndex(where: { $0.name == name }) {
            probes[index].count += 1
        } else {
            probes.append((name, 1))
        }
    }

    /// Event slots: one per event name (``SimEvent/Kind/eventNames``), a kind's slots in a row
    /// from its base (a kind named by a variant has one per variant, indexed by its ordinal).
    /// The hot path indexes an array instead of building the event's name.
    private static let slotBases: [Int] = {
        var bases: [Int] = []
        var next = 0
        for kind in SimEvent.Kind.allCases {
            bases.append(next)
            next += kind.eventNames.count
        }
        return bases
    }()

    /// The event name of each slot (every slot a run can fill).
    private static let slotNames: [String] = SimEvent.Kind.allCases.flatMap(\.eventNames)

    /// Slots in the order of their names (coverage lists events sorted by name).
    private static let slotsByName: [Int] = slotNames.indices.sorted { slotNames[$0] < slotNames[$1] }

    /// Which counter feeds an entry of the coverage.
    private enum Source {
        case state(Int), transition(Int), event(Int), stateEvent(Int), condition(Int)
    }

    /// Calls `add` for each entry of a run's coverage, in the order they are listed (categories:
    /// states, transitions, actions, faults, events, stateEvents, conditions), with the counter
    /// that feeds it. A (state, event) pair is named `state/event`, e.g.
    /// `background/task.expirationCallout`.
    private static func forEachEntry(_ add: (String, String, Source) -> Void) {
        for (index, state) in states.enumerated() {
            add("states", state.rawValue, .state(index))
            for (toIndex, to) in states.enumerated() where state != to {
                add("transitions", "\(state.rawValue)->\(to.rawValue)", .transition(index * states.count + toIndex))
            }
        }
        // An action's count is that of its event slot (`env.<action>`).
        let actionBase = slotBases[SimEvent.Kind.action.rawValue]
        for (index, action) in actions.enumerated() {
            add("actions", action.rawValue, .event(actionBase + index))
            if action.isFault { add("faults", action.rawValue, .event(actionBase + index)) }
        }
        for slot in slotsByName { add("events", slotNames[slot], .event(slot)) }
        for (index, state) in states.enumerated() {
            for slot in slotsByName {
                add(stateEventsCategory, "\(state.rawValue)/\(slotNames[slot])", .stateEvent(index * slotNames.count + slot))
            }
        }
        for (index, condition) in CoverageCondition.ordered.enumerated() {
            add(conditionsCategory, condition.rawValue, .condition(index))
        }
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

    /// The category of (app state, event) pairs.
    static let stateEventsCategory = "stateEvents"
    /// The category of ``CoverageCondition``s.
    static let conditionsCategory = "conditions"

    /// The counts as a ``Coverage`` (categories: states, transitions, actions, faults, events,
    /// stateEvents, conditions, then probes when one was hit).
    func coverage() -> Coverage {
        let layout = Self.layout  // one lazy-global check, not one per feed
        var coverage = layout.template
        for feed in layout.feeds {
            let count: Int
            switch feed.source {
            case .state(let index): count = stateCounts[index]
            case .transition(let index): count = transitionCounts[index]
            case .event(let index): count = eventCounts[index]
            case .stateEvent(let index): count = stateEventCounts[index]
            case .condition(let index): count = conditionCounts[index]
            }
            // Adding zero changes nothing; skipping it spares the copy-on-write of every category
            // a run never touched (most transitions, most actions).
            if count != 0 { coverage.add(count: count, at: feed.position) }
        }
        // Probes have names of the workload's choosing: a category of their own, after the
        // fixed layout, present only in runs that hit one.
        for probe in probes { coverage.add(Coverage.probesCategory, probe.name, count: probe.count) }
        return coverage
    }
}

extension CoverageCondition {
    /// The condition's position in ``ordered`` (its counter's index).
    var ordinal: Int {
        switch self {
        case .taskHeldAtSuspension: 0
        case .expiryWithTaskHeld: 1
        case .bgTaskLaunchedWhileTaskHeld: 2
        case .bgTaskLaunchedBeforePreviousCompleted: 3
        case .thirdBackgroundLaunchWithoutOpen: 4
        case .networkDownWithRequestInFlight: 5
        }
    }
}
