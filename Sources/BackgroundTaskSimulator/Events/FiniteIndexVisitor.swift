import DeterministicSimulation

/// Numbers the events of a kind whose payload is only variants, enum names and Booleans (an
/// action, a state change, a network change): `0..<product of the values' counts`, in mixed
/// radix, first value most significant. ``SimEvent/contentHash`` looks these events' hashes up
/// by that number instead of hashing them.
///
/// ```swift
/// var index = FiniteIndexVisitor()
/// SimEvent.stateChanged(from: .inactive, to: .active).describe(to: &index)
/// index.index        // 1 * 5 + 2 == 7
/// ```
///
/// Contract: ``isFinite`` is false after any other kind of value; the numbering is the one
/// ``FiniteHashes`` enumerates from a kind's ``SimEvent/Shape``.
struct FiniteIndexVisitor: SimEventVisitor {
    var kind = SimEvent.Kind.action
    var index = 0
    var isFinite = true

    mutating func kind(_ kind: SimEvent.Kind) { self.kind = kind }
    mutating func variant<Case: EventNamedEnum>(_ value: Case) { index = index &* Case.caseCount &+ value.ordinal }
    mutating func bool(_ key: StaticString, _ value: Bool) { index = index &* 2 &+ (value ? 1 : 0) }
    mutating func enumName<Case: EventNamedEnum>(_ key: StaticString, _ value: Case) {
        index = index &* Case.caseCount &+ value.ordinal
    }
    mutating func int(_ key: StaticString, _ value: Int64) { isFinite = false }
    mutating func string(_ key: StaticString, _ value: String) { isFinite = false }
    mutating func text<Value: CustomStringConvertible>(_ key: StaticString, _ value: Value) { isFinite = false }
    mutating func time(_ key: StaticString, _ value: VirtualTime) { isFinite = false }
    mutating func duration(_ key: StaticString, _ value: VirtualDuration) { isFinite = false }
    mutating func ids(_ key: StaticString, _ value: [Int]) { isFinite = false }
}
