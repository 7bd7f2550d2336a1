public import DeterministicSimulation
import BackgroundTaskKit

extension SimEvent {
    /// Feeds the event into a trace digest: a case tag, then every payload value in declaration
    /// order.
    ///
    /// ```swift
    /// var hasher = StableHasher()
    /// SimEvent.taskEnded(id: 3, name: "upload").hash(into: &hasher)
    /// ```
    ///
    /// Contract: two events hash alike only if they are equal (up to the hash's collisions): the
    /// tag frames the case, strings and lists are length-prefixed by ``StableHasher``/here. This is
    /// the hottest code of a campaign (every event of every run passes through it), so it
    /// allocates nothing: no ``name`` string, no ``fields`` array. Changing it changes every
    /// digest; the determinism tests pin it.
    public func hash(into hasher: inout StableHasher) {
        hasher.combine(UInt64(kindIndex))
        switch self {
        case .action(let action): Self.actionNames.combine(action.ordinal, into: &hasher)
        case .networkChanged(let available): hasher.combine(available)
        case .backgroundRefreshChanged(let enabled): hasher.combine(enabled)
        case .processLaunched(let process, let inBackground):
            hasher.combine(Int64(process))
            hasher.combine(inBackground)
        case .stateChanged(let from, let to):
            Self.stateNames.combine(from.ordinal, into: &hasher)
            Self.stateNames.combine(to.ordinal, into: &hasher)
        case .lifecycle(let event): Self.lifecycleNames.combine(event.ordinal, into: &hasher)
        case .sceneWillConnect, .sceneDidDisconnect: break
        case .terminated(let reason, let open):
            hasher.combine(reason.description)
            Self.combine(open, into: &hasher)
        case .taskBegan(let id, let name, let state):
            hasher.combine(Int64(id))
            hasher.combine(name)
            Self.stateNames.combine(state.ordinal, into: &hasher)
        case .taskBeginDenied(let name): hasher.combine(name)
        case .taskEnded(let id, let name):
            hasher.combine(Int64(id))
            hasher.combine(name)
        case .endedUnknownTask(let id): hasher.combine(Int64(id))
        case .budgetStarted(let deadline): hasher.combine(deadline)
        case .expirationCallout(let ids, let early):
            Self.combine(ids, into: &hasher)
            hasher.combine(early)
        case .expirationHandlerCalled(let id): hasher.combine(Int64(id))
        case .expirationHandlersReturned(let open, let elapsed):
            Self.combine(open, into: &hasher)
            hasher.combine(elapsed)
        case .console(let text): hasher.combine(text)
        case .nothingHeld(let reason): hasher.combine(reason)
        case .taskRegistered(let identifier, let accepted):
            hasher.combine(identifier)
            hasher.combine(accepted)
        case .requestSubmitted(let identifier, let kind, let error):
            hasher.combine(identifier)
            hasher.combine(kind)
            hasher.combine(error ?? "none")
        case .requestCancelled(let identifier): hasher.combine(identifier)
        case .bgTaskLaunched(let identifier, let task, let kind):
            hasher.combine(identifier)
            hasher.combine(Int64(task))
            hasher.combine(kind)
        case .bgTaskExpiring(let identifier, let task, let hasHandler):
            hasher.combine(identifier)
            hasher.combine(Int64(task))
            hasher.combine(hasHandler)
        case .bgTaskCompleted(let identifier, let task, let success, let repeated):
            hasher.combine(identifier)
            hasher.combine(Int64(task))
            hasher.combine(success)
            hasher.combine(repeated)
        case .bgTaskProgress(let identifier, let task, let completed, let total):
            hasher.combine(identifier)
            hasher.combine(Int64(task))
            hasher.combine(completed)
            hasher.combine(total)
        case .workStarted(let id, let name):
            hasher.combine(Int64(id))
            hasher.combine(name)
        case .workFinished(let id, let name, let cancelled):
            hasher.combine(Int64(id))
            hasher.combine(name)
            hasher.combine(cancelled)
        case .violation(let invariant, let message):
            hasher.combine(invariant)
            hasher.combine(message)
        case .runPhase(let phase): hasher.combine(phase)
        }
    }

    /// The hash words of the enum names events carry, computed once: hashing a name from these
    /// tables feeds exactly the words `hasher.combine(rawValue)` would (a test checks every case),
    /// without walking its UTF-8 on every event.
    static let actionNames = StableHashStringTable(EnvironmentAction.ordered.map(\.rawValue))
    /// See ``actionNames``; indexed by ``AppProcessState/ordinal``.
    static let stateNames = StableHashStringTable(AppProcessState.allCases.map(\.rawValue))
    /// See ``actionNames``; indexed by ``LifecycleEvent/ordinal``.
    static let lifecycleNames = StableHashStringTable(LifecycleEvent.allCases.map(\.rawValue))

    private static func combine(_ ids: [Int], into hasher: inout StableHasher) {
        hasher.combine(UInt64(ids.count))
        for id in ids { hasher.combine(Int64(id)) }
    }

    /// The event's case, numbered in declaration order (0 for `.action`); a hash tag and an array
    /// index for coverage counting.
    var kindIndex: Int {
        switch self {
        case .action: 0
        case .networkChanged: 1
        case .backgroundRefreshChanged: 2
        case .processLaunched: 3
        case .stateChanged: 4
        case .lifecycle: 5
        case .sceneWillConnect: 6
        case .sceneDidDisconnect: 7
        case .terminated: 8
        case .taskBegan: 9
        case .taskBeginDenied: 10
        case .taskEnded: 11
        case .endedUnknownTask: 12
        case .budgetStarted: 13
        case .expirationCallout: 14
        case .expirationHandlerCalled: 15
        case .expirationHandlersReturned: 16
        case .console: 17
        case .nothingHeld: 18
        case .taskRegistered: 19
        case .requestSubmitted: 20
        case .requestCancelled: 21
        case .bgTaskLaunched: 22
        case .bgTaskExpiring: 23
        case .bgTaskCompleted: 24
        case .bgTaskProgress: 25
        case .workStarted: 26
        case .workFinished: 27
        case .violation: 28
        case .runPhase: 29
        }
    }

    /// An event of the given kind (``kindIndex``), for tables built per kind.
    static func representative(ofKind kind: Int) -> SimEvent {
        representativesByKind[kind]
    }

    /// ``representative(ofKind:)`` for every kind, built once: every run's monitor asks for all
    /// of them, and a search of ``representatives`` per kind cost more than a short run's events.
    private static let representativesByKind: [SimEvent] = (0..<kindCount).map { kind in
        switch kind {
        case 0: return .action(.launch)
        case 5: return .lifecycle(.didFinishLaunching)
        default:
            guard let event = representatives.first(where: { $0.kindIndex == kind }) else {
                preconditionFailure("no representative SimEvent of kind \(kind)")
            }
            return event
        }
    }

    /// How many values ``kindIndex`` takes.
    static let kindCount = 30
}

extension SimEvent {
    /// ``hash(into:)`` on a fresh hasher, finalized: looked up in ``ContentHashes`` for the events
    /// whose payload is only enum cases and Booleans (most of a run's events: actions, state
    /// changes, lifecycle callbacks), computed otherwise. The tables are filled by calling
    /// ``hash(into:)`` itself, so the number, and every digest, is the same either way.
    public var contentHash: UInt64 {
        switch self {
        case .action(let action): return Self.contentHashes.actions[action.ordinal]
        case .stateChanged(let from, let to):
            return Self.contentHashes.stateChanges[from.ordinal &* ContentHashes.stateCount &+ to.ordinal]
        case .lifecycle(let event): return Self.contentHashes.lifecycle[event.ordinal]
        case .networkChanged(let available): return Self.contentHashes.network[available ? 1 : 0]
        case .backgroundRefreshChanged(let enabled): return Self.contentHashes.refresh[enabled ? 1 : 0]
        case .sceneWillConnect: return Self.contentHashes.sceneWillConnect
        case .sceneDidDisconnect: return Self.contentHashes.sceneDidDisconnect
        default:
            var hasher = StableHasher()
            hash(into: &hasher)
            return hasher.finalize()
        }
    }

    /// The content hashes of the payload-free (enum-only) events, computed once per process.
    static let contentHashes = ContentHashes()

    /// See ``contentHashes``; a test compares every entry with a fresh ``hash(into:)``.
    struct ContentHashes: Sendable {
        static let stateCount = AppProcessState.allCases.count
        let actions: [UInt64]
        /// Indexed by `from.ordinal * stateCount + to.ordinal`.
        let stateChanges: [UInt64]
        let lifecycle: [UInt64]
        /// Indexed by 0 (false) and 1 (true).
        let network: [UInt64]
        /// Indexed by 0 (false) and 1 (true).
        let refresh: [UInt64]
        let sceneWillConnect: UInt64
        let sceneDidDisconnect: UInt64

        init() {
            func hashed(_ event: SimEvent) -> UInt64 {
                var hasher = StableHasher()
                event.hash(into: &hasher)
                return hasher.finalize()
            }
            actions = EnvironmentAction.ordered.map { hashed(.action($0)) }
            let states = AppProcessState.allCases
            stateChanges = states.flatMap { from in states.map { to in hashed(.stateChanged(from: from, to: to)) } }
            lifecycle = LifecycleEvent.allCases.map { hashed(.lifecycle($0)) }
            network = [false, true].map { hashed(.networkChanged(available: $0)) }
            refresh = [false, true].map { hashed(.backgroundRefreshChanged(enabled: $0)) }
            sceneWillConnect = hashed(.sceneWillConnect)
            sceneDidDisconnect = hashed(.sceneDidDisconnect)
        }
    }
}
