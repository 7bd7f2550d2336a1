import SimulationFormats

/// Random JSON values for round-trip tests, drawn from a `TestRandom`.
struct JSONValueGenerator {
    var random: TestRandom

    mutating func value(depth: Int = 0) -> JSONValue {
        let kinds = depth >= 4 ? 5 : 7
        switch random.below(kinds) {
        case 0: return .null
        case 1: return .bool(random.chance(1, in: 2))
        case 2: return .int(integer())
        case 3: return .double(double())
        case 4: return .string(string())
        case 5: return .array((0..<random.below(5)).map { _ in value(depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<random.below(5) {
                object.set(value(depth: depth + 1), forKey: string())
            }
            return .object(object)
        }
    }

    mutating func integer() -> Int64 {
        switch random.below(4) {
        case 0: return random.pick([0, 1, -1, .max, .min, .max - 1, .min + 1])
        case 1: return Int64(random.int(in: -1000...1000))
        default: return Int64(bitPattern: random.next())
        }
    }

    mutating func double() -> Double {
        switch random.below(4) {
        case 0:
            return random.pick([0.0, -0.0, 0.1, 1.0, 3.0, 1e16, 1e-5, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                -.greatestFiniteMagnitude, .leastNormalMagnitude, 1.0 / 3.0])
        case 1: return Double(random.int(in: -1_000_000...1_000_000)) / 64
        default:
            let candidate = Double(bitPattern: random.next())
            return candidate.isFinite ? candidate : 2.5
        }
    }

    mutating func string() -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{0}", "\u{1F}",
                                      "\u{7F}", "é", "ß", "\u{2028}", "\u{FEFF}", "😀", "中", "\u{10FFFF}"]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<random.below(12) {
            scalars.append(random.pick(pool))
        }
        return String(scalars)
    }
}
