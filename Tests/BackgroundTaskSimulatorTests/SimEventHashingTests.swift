@testable import BackgroundTaskSimulator
import BackgroundTaskKit
import DeterministicSimulation
import Testing

@Suite struct SimEventHashingTests {
    static func digest(_ event: SimEvent) -> UInt64 {
        var hasher = StableHasher()
        event.hash(into: &hasher)
        return hasher.finalize()
    }

    @Test func representativesCoverEveryCaseButTheNamedOnes() {
        let kinds = SimEvent.representatives.map(\.kindIndex)
        #expect(kinds == Array(1..<SimEvent.kindCount).filter { $0 != 5 })
    }

    @Test func everyEventNameIsListedOnce() {
        #expect(Set(SimEvent.allNames).count == SimEvent.allNames.count)
        #expect(SimEvent.allNames == SimEvent.allNames.sorted())
        #expect(SimEvent.allNames.contains("env.home"))
        #expect(SimEvent.allNames.contains("lifecycle.didEnterBackground"))
        #expect(SimEvent.allNames.contains("task.end"))
    }

    /// The precomputed name tables feed exactly what hashing the raw value as a string feeds, so
    /// digests did not change when they replaced it; their indices follow `allCases`.
    @Test func nameTablesHashLikeTheirStrings() {
        func table(_ names: StableHashStringTable, _ index: Int) -> UInt64 {
            var hasher = StableHasher()
            names.combine(index, into: &hasher)
            return hasher.finalize()
        }
        func string(_ text: String) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(text)
            return hasher.finalize()
        }
        #expect(SimEvent.actionNames.count == EnvironmentAction.allCases.count)
        for action in EnvironmentAction.allCases {
            #expect(table(SimEvent.actionNames, action.ordinal) == string(action.rawValue))
        }
        #expect(SimEvent.stateNames.count == AppProcessState.allCases.count)
        for (position, state) in AppProcessState.allCases.enumerated() {
            #expect(state.ordinal == position)
            #expect(table(SimEvent.stateNames, state.ordinal) == string(state.rawValue))
        }
        #expect(SimEvent.lifecycleNames.count == LifecycleEvent.allCases.count)
        for (position, event) in LifecycleEvent.allCases.enumerated() {
            #expect(event.ordinal == position)
            #expect(table(SimEvent.lifecycleNames, event.ordinal) == string(event.rawValue))
        }
        let edges = ["", "a", "abcdefg", "abcdefgh", "abcdefghi", "é✓ unicode", String(repeating: "x", count: 33)]
        let edgeTable = StableHashStringTable(edges)
        for (index, text) in edges.enumerated() {
            #expect(table(edgeTable, index) == string(text))
        }
    }

    /// `contentHash` (precomputed for enum-only events) equals a fresh `hash(into:)`, finalized,
    /// for every such event and for every representative of the other kinds.
    @Test func contentHashMatchesAFreshHash() {
        var events: [SimEvent] = SimEvent.representatives
        events += EnvironmentAction.allCases.map { .action($0) }
        events += LifecycleEvent.allCases.map { .lifecycle($0) }
        for from in AppProcessState.allCases {
            for to in AppProcessState.allCases { events.append(.stateChanged(from: from, to: to)) }
        }
        for flag in [false, true] {
            events.append(.networkChanged(available: flag))
            events.append(.backgroundRefreshChanged(enabled: flag))
        }
        events += [.sceneWillConnect, .sceneDidDisconnect, .taskEnded(id: 3, name: "upload")]
        for event in events {
            #expect(event.contentHash == Self.digest(event), "\(event)")
        }
    }

    @Test func representativesHashApart() {
        let digests = SimEvent.representatives.map(Self.digest)
        #expect(Set(digests).count == digests.count)
    }

    @Test func everyPayloadValueChangesTheHash() {
        let variants: [SimEvent] = [
            .taskEnded(id: 1, name: "a"), .taskEnded(id: 2, name: "a"), .taskEnded(id: 1, name: "b"),
            .taskBegan(id: 1, name: "a", state: .background), .taskBegan(id: 1, name: "a", state: .active),
            .action(.home), .action(.lock), .lifecycle(.didEnterBackground), .lifecycle(.willEnterForeground),
            .expirationCallout(ids: [1, 2], early: false), .expirationCallout(ids: [12], early: false),
            .expirationCallout(ids: [1, 2], early: true), .expirationCallout(ids: [], early: false),
            .requestSubmitted(identifier: "r", kind: "refresh", error: nil),
            .requestSubmitted(identifier: "r", kind: "refresh", error: "unavailable"),
            .bgTaskCompleted(identifier: "r", task: 1, success: true, repeated: false),
            .bgTaskCompleted(identifier: "r", task: 1, success: true, repeated: true),
            .budgetStarted(deadline: .seconds(30)), .budgetStarted(deadline: .seconds(31)),
        ]
        let digests = variants.map(Self.digest)
        #expect(Set(digests).count == digests.count)
    }
}
