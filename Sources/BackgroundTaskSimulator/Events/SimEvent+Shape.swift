import DeterministicSimulation

extension SimEvent {
    /// The kind and the field layout of an event, values left out: what tables built per kind
    /// read from a kind's ``KindSpec/example`` (the payload-free content hashes, which kinds are
    /// named by a variant) and what the description tests check.
    ///
    /// ```swift
    /// let shape = SimEvent.Shape(of: .stateChanged(from: .active, to: .background))
    /// shape.fields.map(\.key)        // ["from", "to"]
    /// shape.finiteRadices            // [5, 5]: 25 possible events
    /// ```
    struct Shape: SimEventVisitor {
        /// How one presented value is shown (``SimEventVisitor``'s methods, one each).
        enum Value {
            case variant(CaseNames), enumName(CaseNames), bool, int, string, text, time, duration, ids
        }

        private(set) var kind = Kind.action
        /// The presented values in order; a variant's key is empty.
        private(set) var fields: [(key: String, value: Value)] = []

        init(of event: SimEvent) {
            event.describe(to: &self)
        }

        /// For a kind whose every value is a variant, an enum name or a Boolean, the number of
        /// values each can take (its events are then finitely many: their product); nil otherwise.
        var finiteRadices: [Int]? {
            var radices: [Int] = []
            for field in fields {
                switch field.value {
                case .variant(let names), .enumName(let names): radices.append(names.count)
                case .bool: radices.append(2)
                case .int, .string, .text, .time, .duration, .ids: return nil
                }
            }
            return radices
        }

        mutating func kind(_ kind: Kind) { self.kind = kind }
        mutating func variant<Case: EventNamedEnum>(_ value: Case) { fields.append(("", .variant(Case.caseNames))) }
        mutating func int(_ key: StaticString, _ value: Int64) { fields.append((key.description, .int)) }
        mutating func bool(_ key: StaticString, _ value: Bool) { fields.append((key.description, .bool)) }
        mutating func string(_ key: StaticString, _ value: String) { fields.append((key.description, .string)) }
        mutating func text<Described: CustomStringConvertible>(_ key: StaticString, _ value: Described) {
            fields.append((key.description, .text))
        }
        mutating func enumName<Case: EventNamedEnum>(_ key: StaticString, _ value: Case) {
            fields.append((key.description, .enumName(Case.caseNames)))
        }
        mutating func time(_ key: StaticString, _ value: VirtualTime) { fields.append((key.description, .time)) }
        mutating func duration(_ key: StaticString, _ value: VirtualDuration) { fields.append((key.description, .duration)) }
        mutating func ids(_ key: StaticString, _ value: [Int]) { fields.append((key.description, .ids)) }
    }
}
