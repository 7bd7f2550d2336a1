import DeterministicSimulation

/// Receives one ``SimEvent`` as ``SimEvent/describe(to:)`` presents it: first its kind, then each
/// payload value in declaration order, each with the key it has in traces.
///
/// Every output of an event is a visitor of its one description: the trace digest
/// (``StableHashingVisitor``), the trace's name and fields (``TraceRecordVisitor``), the coverage
/// slot (``SimEvent/Slot``), the payload-free content-hash index (``FiniteIndexVisitor``) and the
/// shape the tables are built from (``SimEvent/Shape``).
///
/// ```swift
/// struct CountingVisitor: SimEventVisitor {
///     var strings = 0
///     mutating func string(_ key: StaticString, _ value: String) { strings += 1 }
///     // …and every other requirement
/// }
/// ```
///
/// Contract: ``kind(_:)`` comes first, exactly once; then at most one ``variant(_:)`` (for
/// kinds whose events are named by a payload enum: `env.home`, `lifecycle.didEnterBackground`),
/// then the fields. The methods say how a value is shown, not only its Swift type: `time` and
/// `duration` hash as microseconds but print as text, `ids` hashes as a counted list but prints
/// as `1,2,3`. There are deliberately no default implementations: a visitor that must see every
/// value (the hasher, the trace) fails to compile when a new kind of value is added. Visitors
/// that need only the kind conform to ``SimEventKindVisitor``, which ignores the payload.
/// Visitors are called on the hot path (hashing sees every event of every run): methods should
/// be small, and are specialized and inlined into ``SimEvent/describe(to:)``.
protocol SimEventVisitor {
    /// The event's kind: its hash tag, name and Perfetto track.
    mutating func kind(_ kind: SimEvent.Kind)
    /// The payload enum case that completes the event's name (`home` in `env.home`).
    mutating func variant<Case: EventNamedEnum>(_ value: Case)
    /// An integer (ids, counts).
    mutating func int(_ key: StaticString, _ value: Int64)
    /// A Boolean flag.
    mutating func bool(_ key: StaticString, _ value: Bool)
    /// A string the client or the model produced (a task name, an identifier, a message).
    mutating func string(_ key: StaticString, _ value: String)
    /// A value shown as its `description`, built only by visitors that need the text (a
    /// termination reason): the hash and the trace see `value.description`.
    mutating func text<Value: CustomStringConvertible>(_ key: StaticString, _ value: Value)
    /// A payload enum case shown by name (an app state): hashed from its precomputed
    /// ``EventNamedEnum/caseNames``.
    mutating func enumName<Case: EventNamedEnum>(_ key: StaticString, _ value: Case)
    /// A virtual time: hashed as microseconds, printed as its description.
    mutating func time(_ key: StaticString, _ value: VirtualTime)
    /// A virtual duration: hashed as microseconds, printed as its description.
    mutating func duration(_ key: StaticString, _ value: VirtualDuration)
    /// A list of task ids: hashed as its count then each id, printed as `1,2,3`.
    mutating func ids(_ key: StaticString, _ value: [Int])
}

/// A visitor that needs only an event's kind and its variant (``SimEvent/Slot``): the payload
/// requirements of ``SimEventVisitor`` default to doing nothing, so specializing
/// ``SimEvent/describe(to:)`` for it leaves a switch over the cases and little else.
///
/// Contract: only visitors for which ignoring a field is correct whatever the field may be
/// conform to this; the hasher, the trace and the finite index conform to ``SimEventVisitor``
/// directly, so they cannot miss a new kind of value.
protocol SimEventKindVisitor: SimEventVisitor {}

extension SimEventKindVisitor {
    mutating func variant<Case: EventNamedEnum>(_ value: Case) {}
    mutating func int(_ key: StaticString, _ value: Int64) {}
    mutating func bool(_ key: StaticString, _ value: Bool) {}
    mutating func string(_ key: StaticString, _ value: String) {}
    mutating func text<Value: CustomStringConvertible>(_ key: StaticString, _ value: Value) {}
    mutating func enumName<Case: EventNamedEnum>(_ key: StaticString, _ value: Case) {}
    mutating func time(_ key: StaticString, _ value: VirtualTime) {}
    mutating func duration(_ key: StaticString, _ value: VirtualDuration) {}
    mutating func ids(_ key: StaticString, _ value: [Int]) {}
}
