import DeterministicSimulation

/// Feeds a ``SimEvent``'s description to a ``StableHasher``: the visitor behind
/// ``SimEvent/hash(into:)`` and so behind every trace digest.
///
/// ```swift
/// var visitor = StableHashingVisitor()
/// SimEvent.taskEnded(id: 3, name: "upload").describe(to: &visitor)
/// let hash = visitor.hasher.finalize()
/// ```
///
/// Contract: the words fed are, in order: the kind's raw value; a variant's or an enum name's
/// name (from its precomputed ``CaseNames/hashWords``, the same words as hashing the string);
/// integers as one word; Booleans as 1 or 0; strings and `text` descriptions length-prefixed;
/// times and durations as microseconds; id lists as their count then each id. Keys are not
/// hashed. This is the hottest code of a campaign: nothing here allocates or builds a string
/// except `text` (a termination reason's description, once per run at most).
struct StableHashingVisitor: SimEventVisitor {
    var hasher: StableHasher

    init(_ hasher: StableHasher = StableHasher()) {
        self.hasher = hasher
    }

    mutating func kind(_ kind: SimEvent.Kind) { hasher.combine(UInt64(kind.rawValue)) }
    mutating func variant<Case: EventNamedEnum>(_ value: Case) {
        Case.caseNames.hashWords.combine(value.ordinal, into: &hasher)
    }
    mutating func int(_ key: StaticString, _ value: Int64) { hasher.combine(value) }
    mutating func bool(_ key: StaticString, _ value: Bool) { hasher.combine(value) }
    mutating func string(_ key: StaticString, _ value: String) { hasher.combine(value) }
    mutating func text<Value: CustomStringConvertible>(_ key: StaticString, _ value: Value) {
        hasher.combine(value.description)
    }
    mutating func enumName<Case: EventNamedEnum>(_ key: StaticString, _ value: Case) {
        Case.caseNames.hashWords.combine(value.ordinal, into: &hasher)
    }
    mutating func time(_ key: StaticString, _ value: VirtualTime) { hasher.combine(value) }
    mutating func duration(_ key: StaticString, _ value: VirtualDuration) { hasher.combine(value) }
    mutating func ids(_ key: StaticString, _ value: [Int]) {
        hasher.combine(UInt64(value.count))
        for id in value { hasher.combine(Int64(id)) }
    }
}
