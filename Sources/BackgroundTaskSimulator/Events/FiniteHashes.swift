import DeterministicSimulation

/// The content hash of every event of every finite kind (see ``FiniteIndexVisitor``), by kind
/// then index: built from each kind's ``SimEvent/Shape``, feeding the words
/// ``StableHashingVisitor`` feeds (the kind, each name's ``CaseNames/hashWords``, each flag), so
/// an entry is exactly the fresh hash of its event (`SimEventHashingTests` compares them all).
///
/// ```swift
/// let table = FiniteHashes()
/// table.hashes[table.bases[SimEvent.Kind.action.rawValue] + EnvironmentAction.home.ordinal]
/// ```
///
/// Contract: `bases[kind]` is -1 for kinds that are not finite or have more than
/// ``maximumEvents`` events (those are hashed each time).
struct FiniteHashes: Sendable {
    /// The most events of one kind tabulated.
    static let maximumEvents = 1_024
    /// Where each kind's hashes start in ``hashes``, by raw value; -1 for none.
    let bases: [Int]
    let hashes: [UInt64]

    init() {
        var bases: [Int] = []
        var hashes: [UInt64] = []
        for kind in SimEvent.Kind.allCases {
            let shape = SimEvent.Shape(of: SimEvent.Kind.specs[kind.rawValue].example)
            guard let radices = shape.finiteRadices, radices.reduce(1, *) <= Self.maximumEvents else {
                bases.append(-1)
                continue
            }
            bases.append(hashes.count)
            for index in 0..<radices.reduce(1, *) {
                hashes.append(Self.hash(kind, shape, digits: Self.digits(of: index, radices: radices)))
            }
        }
        self.bases = bases
        self.hashes = hashes
    }

    /// `index` in mixed radix, most significant first.
    private static func digits(of index: Int, radices: [Int]) -> [Int] {
        var rest = index
        var digits = [Int](repeating: 0, count: radices.count)
        for position in radices.indices.reversed() {
            digits[position] = rest % radices[position]
            rest /= radices[position]
        }
        return digits
    }

    /// The fresh hash of the event of `kind` whose values are `digits`.
    private static func hash(_ kind: SimEvent.Kind, _ shape: SimEvent.Shape, digits: [Int]) -> UInt64 {
        var visitor = StableHashingVisitor()
        visitor.kind(kind)
        for (field, digit) in zip(shape.fields, digits) {
            switch field.value {
            case .variant(let names), .enumName(let names): names.hashWords.combine(digit, into: &visitor.hasher)
            case .bool: visitor.bool("", digit == 1)
            case .int, .string, .text, .time, .duration, .ids: preconditionFailure("not a finite value")
            }
        }
        return visitor.hasher.finalize()
    }
}
