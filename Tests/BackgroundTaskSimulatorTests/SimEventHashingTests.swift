@testable import BackgroundTaskSimulator
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
