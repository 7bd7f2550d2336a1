public import DeterministicSimulation

extension SimEvent: TraceEventRepresentable {
    /// A dotted name for readable traces and JSON: `task.begin`, `lifecycle.didEnterBackground`…
    /// (the kind's ``KindSpec/name``, followed by the variant's case name for actions and
    /// lifecycle callbacks).
    public var name: String {
        var visitor = TraceNameVisitor()
        describe(to: &visitor)
        return visitor.name
    }

    /// The payload as ordered fields: every value ``describe(to:)`` presents, under its key
    /// (the variant that names an action or a lifecycle callback is in ``name`` instead).
    public var fields: [TraceField] {
        traceRecord.fields
    }

    /// ``name`` and ``fields`` from one pass over the description.
    var traceRecord: (name: String, fields: [TraceField]) {
        var visitor = TraceRecordVisitor()
        describe(to: &visitor)
        return (visitor.name.name, visitor.fields)
    }

    /// Every event name a run can record (environment actions as `env.*`), sorted; coverage
    /// lists them all so a campaign that never reached one says so.
    public static let allNames: [String] = Kind.allCases.flatMap(\.eventNames).sorted()
}

extension SimEvent.Kind {
    /// The names events of this kind can have: one, or one per variant (`env.launch`, `env.open`…
    /// in the variant's declaration order).
    var eventNames: [String] {
        let spec = self.spec
        guard spec.isNamedByVariant else { return [spec.name] }
        guard case .variant(let names)? = SimEvent.Shape(of: spec.example).fields.first?.value else {
            preconditionFailure("\(self) is named by a variant but presents none first")
        }
        return names.names.map { spec.name + $0 }
    }
}

/// Builds an event's trace name: its kind's name, plus the variant's case name.
struct TraceNameVisitor: SimEventKindVisitor {
    var name = ""

    mutating func kind(_ kind: SimEvent.Kind) { name = SimEvent.Kind.specs[kind.rawValue].name }
    mutating func variant<Case: EventNamedEnum>(_ value: Case) { name += Case.caseNames[value.ordinal] }
}

/// Builds an event's trace name and fields (``SimEvent/traceRecord``): the form traces, reports
/// and Perfetto print.
///
/// Contract: one ``TraceField`` per value, in order, under its key: integers and Booleans as
/// such; strings, `text` descriptions, enum names, times and durations (their descriptions) as
/// strings; id lists as `1,2,3`.
struct TraceRecordVisitor: SimEventVisitor {
    var name = TraceNameVisitor()
    var fields: [TraceField] = []

    mutating func kind(_ kind: SimEvent.Kind) { name.kind(kind) }
    mutating func variant<Case: EventNamedEnum>(_ value: Case) { name.variant(value) }
    mutating func int(_ key: StaticString, _ value: Int64) { add(key, .int(value)) }
    mutating func bool(_ key: StaticString, _ value: Bool) { add(key, .bool(value)) }
    mutating func string(_ key: StaticString, _ value: String) { add(key, .string(value)) }
    mutating func text<Value: CustomStringConvertible>(_ key: StaticString, _ value: Value) {
        add(key, .string(value.description))
    }
    mutating func enumName<Case: EventNamedEnum>(_ key: StaticString, _ value: Case) {
        add(key, .string(Case.caseNames[value.ordinal]))
    }
    mutating func time(_ key: StaticString, _ value: VirtualTime) { add(key, .string(value.description)) }
    mutating func duration(_ key: StaticString, _ value: VirtualDuration) { add(key, .string(value.description)) }
    mutating func ids(_ key: StaticString, _ value: [Int]) {
        add(key, .string(value.map(String.init).joined(separator: ",")))
    }

    private mutating func add(_ key: StaticString, _ value: TraceValue) {
        fields.append(TraceField(key.description, value))
    }
}
